/* eslint-disable no-restricted-syntax -- sleep itself is under test, on vitest's fake timers */
import { getEventListeners } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sleep } from '../../src/util/sleep.js';

// The timers are vitest's: the waits end when the test moves the time, not after real time.
beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('sleep', () => {
  it('many waits on one signal hold one listener while under way and none after', async () => {
    const controller = new AbortController();
    const waits = Array.from({ length: 50 }, (_, i) => sleep(1 + (i % 5), controller.signal));
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(4);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await Promise.all(waits);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    // A second round on the same signal starts afresh.
    const again = Promise.all(Array.from({ length: 20 }, () => sleep(1, controller.signal)));
    await vi.advanceTimersByTimeAsync(1);
    await again;
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('an abort ends every wait on the signal with its reason', async () => {
    const controller = new AbortController();
    const reason = new Error('stop');
    const waits = Array.from({ length: 30 }, () =>
      sleep(60_000, controller.signal).then(
        () => 'slept',
        (e) => e,
      ),
    );
    controller.abort(reason);
    expect(await Promise.all(waits)).toEqual(Array.from({ length: 30 }, () => reason));
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    await expect(sleep(10, controller.signal)).rejects.toBe(reason);
  });

  it('waits without a signal, and not at all for 0', async () => {
    let slept = false;
    const one = sleep(1).then(() => (slept = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(slept).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await one;
    expect(slept).toBe(true);
    await sleep(0);
  });
});
