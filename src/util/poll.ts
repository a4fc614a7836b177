import { ApiError, NetworkError } from '../errors.js';
import { sleep } from './sleep.js';

/** Reading a thing again and again until it is done: the loop every wait uses, with no output. */

export interface PollOptions {
  /** give up after this long */
  timeoutMs: number;
  /** first pause between reads */
  intervalMs: number;
  /** each pause is the last one times this (default 1.5) … */
  growth?: number | undefined;
  /** … up to this, or the first pause if that is longer (default 15 s) */
  maxIntervalMs?: number | undefined;
  signal?: AbortSignal | undefined;
}

/** A fault a later read may not meet again: a 5xx the client gave up on, or the network. */
export function isTransient(err: unknown): boolean {
  return err instanceof NetworkError || (err instanceof ApiError && err.status >= 500);
}

/**
 * Reads `read()` until `done(value)` holds, with growing pauses. A transient fault of one read
 * does not end the wait; the deadline does, with the error `onTimeout` makes.
 */
export async function pollUntil<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  opts: PollOptions,
  onTimeout: (last: T | undefined) => Error,
): Promise<T> {
  const deadline = Date.now() + opts.timeoutMs;
  const growth = opts.growth ?? 1.5;
  const maxInterval = Math.max(opts.maxIntervalMs ?? 15_000, opts.intervalMs);
  let interval = opts.intervalMs;
  let last: T | undefined;
  for (;;) {
    try {
      last = await read();
      if (done(last)) return last;
    } catch (err) {
      if (!isTransient(err)) throw err;
    }
    const left = deadline - Date.now();
    if (left <= 0) throw onTimeout(last);
    await sleep(Math.min(interval, left), opts.signal);
    interval = Math.min(interval * growth, maxInterval);
  }
}
