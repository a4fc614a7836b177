import { DEFAULT_WAIT_TIMEOUT } from '../../config/defaults.js';
import type { Context } from '../../context.js';
import { ExitError, UsageError } from '../../errors.js';
import { pollUntil, type PollOptions } from '../../util/poll.js';
import { parseDuration } from '../../util/validate.js';
import type { WaitFlags } from './flags.js';

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
