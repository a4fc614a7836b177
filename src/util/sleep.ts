/** The waits under way on each signal, and the one listener that ends them all when it aborts. */
const waiting = new WeakMap<AbortSignal, { wakers: Set<() => void>; onAbort: () => void }>();

/**
 * Waits `ms`, or rejects with the signal's reason as soon as it aborts (Ctrl-C). However many
 * waits share a signal (every request of a fleet pausing at once), the signal carries one
 * listener while any is under way and none after.
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    if (ms <= 0) return resolve();
    if (!signal) {
      setTimeout(resolve, ms);
      return;
    }
    let entry = waiting.get(signal);
    if (!entry) {
      const wakers = new Set<() => void>();
      const onAbort = () => {
        waiting.delete(signal);
        for (const wake of wakers) wake();
      };
      entry = { wakers, onAbort };
      waiting.set(signal, entry);
      signal.addEventListener('abort', onAbort, { once: true });
    }
    const { wakers, onAbort } = entry;
    const done = () => {
      wakers.delete(wake);
      if (wakers.size === 0 && waiting.get(signal)?.wakers === wakers) {
        waiting.delete(signal);
        signal.removeEventListener('abort', onAbort);
      }
    };
    const wake = () => {
      clearTimeout(timer);
      done();
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      done();
      resolve();
    }, ms);
    wakers.add(wake);
  });
}
