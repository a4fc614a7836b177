import { describe, expect, it } from 'vitest';
import { COUNTED_FROM_ONE, ID_RANGES, OVERFLOW_BLOCK, idAfter, type RangedKind } from '../../src/sandbox/ids.js';

describe('id sequences', () => {
  const ranges = Object.entries(ID_RANGES) as Array<[RangedKind, { first: number; last: number }]>;

  it('give each kind its own range: no two ranges overlap, and every overflow block lies above all of them', () => {
    const sorted = [...ranges].sort((a, b) => a[1].first - b[1].first);
    for (let i = 1; i < sorted.length; i++) expect(sorted[i]![1].first).toBeGreaterThan(sorted[i - 1]![1].last);
    const top = Math.max(...ranges.map(([, r]) => r.last));
    const overflows = ranges.map(([kind, r]) => idAfter(kind, r.last));
    expect(new Set(overflows).size).toBe(ranges.length);
    for (const start of overflows) {
      expect(start).toBeGreaterThan(top);
      expect(start % OVERFLOW_BLOCK).toBe(0);
    }
  });

  it('start where the seed and clients expect, and count on within the range', () => {
    expect(idAfter('workspace', undefined)).toBe(101);
    expect(idAfter('data_table', undefined)).toBe(5001);
    expect(idAfter('load', undefined)).toBe(8001);
    expect(idAfter('extract', undefined)).toBe(40001);
    expect(idAfter('account', 20001)).toBe(20002);
    for (const kind of COUNTED_FROM_ONE) expect(idAfter(kind, undefined)).toBe(1);
    expect(idAfter('user', 4)).toBe(5);
  });
});
