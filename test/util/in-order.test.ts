import { describe, expect, it } from 'vitest';
import { inOrder } from '../../src/util/in-order.js';

describe('lines of concurrent work in the order of the work', () => {
  it('writes each line once those before it are written, whatever order they finish in', () => {
    const out: string[] = [];
    const say = inOrder(4, (l) => out.push(l));
    say(2, 'c');
    say(1, 'b');
    expect(out).toEqual([]);
    say(0, 'a');
    expect(out).toEqual(['a', 'b', 'c']);
    say(3, 'd');
    expect(out).toEqual(['a', 'b', 'c', 'd']);
  });
});
