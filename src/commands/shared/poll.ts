import { DEFAULT_WAIT_TIMEOUT } from '../../config/defaults.js';
import type { Context } from '../../context.js';
import { ApiError, ExitError, NetworkError, UsageError } from '../../errors.js';
import { sleep } from '../../util/sleep.js';
import { parseDuration } from '../../util/validate.js';
import type { WaitFlags } from './flags.js';

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

/**
 * The pauses of every `--wait` (recipes, extract runs, load runs): the first one from
 * `--poll-interval`, then EDP_POLL_INTERVAL, then the profile's poll_interval, then 2s; each
 * next one half as long again, up to 15 s; the deadline from `--wait-timeout` (30m).
 * Bad values are usage errors naming the flag, variable or profile setting.
 */
export function waitPolling(ctx: Context, waitTimeout: string | undefined): PollOptions {
  const timeoutMs = parseDuration(waitTimeout ?? DEFAULT_WAIT_TIMEOUT, '--wait-timeout');
  return { timeoutMs, intervalMs: ctx.pollIntervalMs(), signal: ctx.signal };
}

/** A checked `--wait`: how to poll, and the timeout as the person gave it (for messages). */
export interface RunWait {
  polling: PollOptions;
  timeoutText: string;
}

/**
 * Checks the wait flags of a run verb before anything is sent; the wait to make with `--wait`,
 * undefined without it.
 */
export function runWaitOf(ctx: Context, opts: WaitFlags): RunWait | undefined {
  if (!opts.wait) {
    if (opts.waitTimeout !== undefined) throw new UsageError('--wait-timeout works with --wait');
    if (opts.pollInterval !== undefined) throw new UsageError('--poll-interval works with --wait');
    return undefined;
  }
  const polling = waitPolling(ctx, opts.waitTimeout);
  if (polling.timeoutMs <= 0) throw new UsageError('--wait-timeout must be longer than 0');
  return { polling, timeoutText: opts.waitTimeout ?? DEFAULT_WAIT_TIMEOUT };
}

/**
 * Polls `read` until `ended` says the run is over, with a spinner on stderr; a transient fault
 * of one read does not end the wait. Past `--wait-timeout` the command ends with exit 8.
 */
export async function waitForRun<T>(
  ctx: Context,
  what: string,
  wait: RunWait,
  read: () => Promise<T>,
  ended: (value: T) => boolean,
): Promise<T> {
  const spinner = await ctx.output.spinner(`Waiting for ${what}`);
  try {
    const value = await pollUntil(
      read,
      ended,
      wait.polling,
      () => new ExitError('waitTimeout', `${what} did not finish within --wait-timeout ${wait.timeoutText}`),
    );
    spinner.stop();
    return value;
  } catch (err) {
    spinner.fail(
      err instanceof ExitError && err.outcome === 'waitTimeout'
        ? `${what}: still running after ${wait.timeoutText}`
        : `${what}: stopped waiting`,
    );
    throw err;
  }
}
