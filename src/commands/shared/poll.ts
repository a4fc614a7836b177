import { originOf } from '../../api/path.js';
import type { WaitGate } from '../../config/resolve.js';
import type { Context } from '../../context.js';
import { ExitError } from '../../errors.js';
import type { Spinner } from '../../output/output.js';
import {
  agoText,
  endedUnanswered,
  faultLine,
  pollUntil,
  WaitUnreachableError,
  type PollFault,
  type PollOptions,
} from '../../util/poll.js';
import type { WaitFlags } from './flags.js';

/** The timing flags of a wait, as a verb's options hold them (flags.ts declares them). */
export interface WaitTiming {
  waitTimeout?: string | undefined;
  pollInterval?: string | undefined;
}

/** A checked wait: how to poll, and the timeout as the person gave it (for messages). */
export interface RunWait {
  polling: PollOptions;
  timeoutText: string;
}

/**
 * The wait of every verb that waits (recipes, extract runs, load runs, `apply`, `status
 * --watch`), checked the same way before anything is sent (RunSettings.waitTiming): the deadline
 * from `--wait-timeout` (30m), longer than 0; the first pause from `--poll-interval`, then
 * EDP_POLL_INTERVAL, then the profile's poll_interval, then 2s; each next one half as long
 * again, up to 15 s. A verb that waits only on request passes its `--wait` or `--watch` as
 * `gate`: without it, its timing flags are refused and there is no wait. The pauses and the
 * clock are the run's (IO.sleep, IO.now).
 */
export function waitOf(ctx: Context, flags: WaitTiming, gate?: WaitGate): RunWait | undefined {
  const timing = ctx.settings.waitTiming(flags, gate);
  if (!timing) return undefined;
  return {
    polling: {
      timeoutMs: timing.timeoutMs,
      intervalMs: timing.intervalMs,
      signal: ctx.signal,
      sleep: ctx.io.sleep,
      now: ctx.io.now,
    },
    timeoutText: timing.timeoutText,
  };
}

/** The wait of a verb that always waits (`recipes poll`, `deploy`, `apply`). */
export function waitPolling(ctx: Context, flags: WaitTiming): PollOptions {
  return waitOf(ctx, flags)!.polling;
}

/** The wait of a run verb (`extracts run`, `loads run`) with `--wait`; undefined without it. */
export function runWaitOf(ctx: Context, opts: WaitFlags): RunWait | undefined {
  return waitOf(ctx, opts, { flag: '--wait', given: !!opts.wait });
}

/** What a wait does with its failed reads: show them, and their end. */
export interface FaultProgress {
  onFault: (fault: PollFault) => void;
  onRecover: () => void;
}

/**
 * A wait's failed reads on its live line: the spinner's text at a terminal, where it is
 * redrawn; elsewhere, where a spinner prints only how it ended, a note each (as the client's
 * retry notes), so that a log shows why the wait went quiet. `label` is the line as it stands.
 */
export function faultProgress(ctx: Context, spinner: Spinner, label: () => string): FaultProgress {
  const notes = !ctx.io.stderr.isTTY;
  return {
    onFault: (fault) => {
      const text = `${label()}; ${faultLine(fault)}`;
      spinner.update(text);
      if (notes) ctx.output.info(text);
    },
    onRecover: () => {
      spinner.update(label());
      if (notes) ctx.output.info(`${label()}; the service answers again`);
    },
  };
}

/**
 * Polls `read` until `ended` says the run is over, with a spinner on stderr; a transient fault
 * of one read does not end the wait, a run of them does (exit 1, naming the address and
 * `follow`, the command that shows the run). Past `--wait-timeout` the command ends with exit 8,
 * saying what was read last (`describe`) and when; a read still unanswered then is given up.
 */
export async function waitForRun<T>(
  ctx: Context,
  what: string,
  wait: RunWait,
  read: () => Promise<T>,
  ended: (value: T) => boolean,
  describe: (value: T) => string,
  follow: string,
): Promise<T> {
  const label = `Waiting for ${what}`;
  const spinner = await ctx.output.spinner(label);
  try {
    const value = await pollUntil(read, ended, wait.polling, {
      timeout: ({ last, lastAgeMs, unanswered }) =>
        new ExitError(
          'waitTimeout',
          last === undefined || lastAgeMs === undefined
            ? `${what} was not read within --wait-timeout ${wait.timeoutText}: the service at ${originOf(ctx.settings.baseUrl().value)} did not answer; it goes on at the service; follow it with \`${follow}\``
            : `${what} did not finish within --wait-timeout ${wait.timeoutText}: it was ${describe(last)} when read ${agoText(lastAgeMs)}${unanswered ? ', and the service did not answer the read after it' : ''}; it goes on at the service; follow it with \`${follow}\``,
        ),
      unreachable: ({ last, lastAgeMs, fault }) =>
        new WaitUnreachableError({
          origin: originOf(ctx.settings.baseUrl().value),
          what,
          lastText: last === undefined ? undefined : describe(last),
          lastAgeMs,
          fault,
          goesOn: 'ending the wait does not stop the run',
          resume: `follow it with \`${follow}\``,
        }),
      ...faultProgress(ctx, spinner, () => label),
    });
    spinner.stop();
    return value;
  } catch (err) {
    // Ctrl-C ends the wait, not the run: said, with the way to follow it (the run then exits 130 quietly).
    if (ctx.signal?.aborted) {
      spinner.fail(`${what}: stopped waiting; it goes on at the service; follow it with \`${follow}\``);
      throw err;
    }
    spinner.fail(
      err instanceof ExitError && err.outcome === 'waitTimeout'
        ? endedUnanswered(err)
          ? `${what}: stopped waiting after ${wait.timeoutText}, the service is not answering`
          : `${what}: still running after ${wait.timeoutText}`
        : err instanceof WaitUnreachableError
          ? `${what}: stopped waiting, the service is not answering`
          : `${what}: stopped waiting`,
    );
    throw err;
  }
}
