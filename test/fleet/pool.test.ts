import { describe, expect, it } from 'vitest';
import { pool } from '../../src/fleet/pool.js';
import { turns } from '../fixtures/turns.js';

describe('pool', () => {
  it('keeps results in order, at most `limit` at a time', async () => {
    let running = 0;
    let most = 0;
    const out = await pool([5, 1, 4, 2, 3], 2, async (n) => {
      running++;
      most = Math.max(most, running);
      await turns(n);
      running--;
      return n * 10;
    });
    expect(out).toEqual([50, 10, 40, 20, 30]);
    expect(most).toBe(2);
  });

  it('starts no item once one has failed, and throws the failure', async () => {
    const started: number[] = [];
    const failure = new Error('workspace 2 failed');
    await expect(
      pool([1, 2, 3, 4, 5, 6], 2, async (n) => {
        started.push(n);
        if (n === 2) throw failure;
        return n;
      }),
    ).rejects.toBe(failure);
    // 1 and 2 started together; 1's worker may take 3 before 2 fails, never more.
    expect(started.slice(0, 2).sort()).toEqual([1, 2]);
    expect(started.length).toBeLessThanOrEqual(3);
  });
});
