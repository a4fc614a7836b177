import { ApiError, NetworkError, withHint } from '../errors.js';
import { sleep as pause } from './sleep.js';

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
  /** failed reads in a row that end the wait (default MAX_FAULTS) … */
  maxFaults?: number | undefined;
  /** … or how long reads may go on failing, from the first of them (default MAX_FAULT_MS), whichever comes first */
  maxFaultMs?: number | undefined;
  /** the clock (ms), for tests */
  now?: (() => number) | undefined;
  /** the pause between reads, for tests */
  sleep?: ((ms: number, signal?: AbortSignal) => Promise<void>) | undefined;
}

/**
 * Each read the wait makes is already repeated by the client (src/api/retry.ts) before it
 * fails, so five failed reads in a row are minutes of a service that does not answer at all,
 * or seconds once the run's retry budget is spent and reads fail at once. Two minutes bounds
 * the reads that each wait out a long Retry-After.
 */
export const MAX_FAULTS = 5;
export const MAX_FAULT_MS = 120_000;

/** A run of failed reads: the latest one's error, how many in a row, for how long. */
export interface PollFault {
  error: unknown;
  /** failed reads in a row, this one included */
  count: number;
  /** ms from the start of the first of them to the end of the latest */
  forMs: number;
}

/** What a wait knew when its deadline passed after a read that succeeded. */
export interface PollTimeout<T> {
  last: T;
  /** ms since `last` was read */
  lastAgeMs: number;
}

/** What a wait knew when it ended on failed reads: what it read last (if ever), and the fault. */
export interface PollUnreachable<T> {
  last: T | undefined;
  /** ms since `last` was read; undefined when nothing was */
  lastAgeMs: number | undefined;
  fault: PollFault;
}

export interface PollHandlers<T> {
  /** the error of a wait whose deadline passed, the latest read having succeeded (exit 8) */
  timeout: (end: PollTimeout<T>) => Error;
  /**
   * The error of a wait whose reads failed `maxFaults` times in a row or for `maxFaultMs`, or
   * whose deadline passed while they failed: what it read is out of date, so it cannot say the
   * thing is still under way (exit 1, see WaitUnreachableError).
   */
  unreachable: (end: PollUnreachable<T>) => Error;
  /** told of each failed read the wait goes on after, for the live line */
  onFault?: ((fault: PollFault) => void) | undefined;
  /** told when a read succeeds after failed ones */
  onRecover?: (() => void) | undefined;
}

/** A fault a later read may not meet again: a 5xx the client gave up on, or the network. */
export function isTransient(err: unknown): boolean {
  return err instanceof NetworkError || (err instanceof ApiError && err.status >= 500);
}

/**
 * Reads `read()` until `done(value)` holds, with growing pauses. A transient fault of one read
 * does not end the wait, a run of them does (`handlers.unreachable`); so does the deadline
 * (`handlers.timeout`).
 */
export async function pollUntil<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  opts: PollOptions,
  handlers: PollHandlers<T>,
): Promise<T> {
  const now = opts.now ?? Date.now;
  const sleep = opts.sleep ?? pause;
  const deadline = now() + opts.timeoutMs;
  const growth = opts.growth ?? 1.5;
  const maxInterval = Math.max(opts.maxIntervalMs ?? 15_000, opts.intervalMs);
  const maxFaults = Math.max(1, opts.maxFaults ?? MAX_FAULTS);
  const maxFaultMs = opts.maxFaultMs ?? MAX_FAULT_MS;
  let interval = opts.intervalMs;
  let last: T | undefined;
  let lastAt: number | undefined;
  let fault: PollFault | undefined;
  let faultSince = 0;
  const unreachable = (f: PollFault) =>
    handlers.unreachable({ last, lastAgeMs: lastAt === undefined ? undefined : now() - lastAt, fault: f });
  for (;;) {
    const started = now();
    try {
      const value = await read();
      last = value;
      lastAt = now();
      if (fault) {
        fault = undefined;
        handlers.onRecover?.();
      }
      if (done(value)) return value;
    } catch (err) {
      if (!isTransient(err)) throw err;
      if (!fault) faultSince = started;
      fault = { error: err, count: (fault?.count ?? 0) + 1, forMs: now() - faultSince };
      if (fault.count >= maxFaults || fault.forMs >= maxFaultMs) throw unreachable(fault);
      handlers.onFault?.(fault);
    }
    const left = deadline - now();
    if (left <= 0) {
      if (fault) throw unreachable(fault);
      // The latest read succeeded, so `last` is what it read.
      throw handlers.timeout({ last: last as T, lastAgeMs: now() - (lastAt ?? now()) });
    }
    // A run of failures gets one more read at its bound rather than ending between reads.
    const faultLeft = fault ? faultSince + maxFaultMs - now() : Infinity;
    await sleep(Math.max(0, Math.min(interval, left, faultLeft)), opts.signal);
    interval = Math.min(interval * growth, maxInterval);
  }
}

/** `ECONNREFUSED`, `503 service_unavailable`: what a failed read met, briefly. */
export function faultCode(err: unknown): string {
  if (err instanceof ApiError) return [String(err.status), err.code].filter(Boolean).join(' ');
  const cause = err instanceof NetworkError ? err.cause : err;
  const code = (cause as { code?: unknown } | undefined)?.code;
  if (typeof code === 'string') return code;
  return cause instanceof Error ? cause.name : 'network error';
}

/** `service unreachable (ECONNREFUSED)`, `service failing (503 service_unavailable)`: a failed read for the live line. */
export function faultText(err: unknown): string {
  return `service ${err instanceof ApiError ? 'failing' : 'unreachable'} (${faultCode(err)})`;
}

/** `service unreachable (ECONNREFUSED), retrying (2 failed reads in a row)`: the live line while reads fail. */
export function faultLine(fault: PollFault): string {
  return `${faultText(fault.error)}, retrying${fault.count > 1 ? ` (${fault.count} failed reads in a row)` : ''}`;
}

/** 12 s, 4 min: a time for a message, in seconds until two minutes. */
export function durationText(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  return s < 120 ? `${s} s` : `${Math.round(s / 60)} min`;
}

/** `just now`, `12 s ago`: how long ago a thing was read. */
export function agoText(ms: number): string {
  return ms < 1000 ? 'just now' : `${durationText(ms)} ago`;
}

/** What a wait gave up on, for WaitUnreachableError. */
export interface UnreachableWait {
  /** the service's origin (never its credentials) */
  origin: string;
  /** what was read: `recipe 5`, `extract 7` */
  what: string;
  /** the last value read, in words (`building_dependencies`); undefined when nothing was read */
  lastText: string | undefined;
  lastAgeMs: number | undefined;
  fault: PollFault;
  /** what the end of the wait leaves as it is: `ending the wait does not stop the build` */
  goesOn: string;
  /** how to take the wait up again: ``resume the wait with `edp recipes poll 5 -w 101` `` */
  resume: string;
}

/**
 * A wait ended because the service stopped answering its reads. Exit 1 and the JSON code
 * `network_error`, as any network fault: the message names the address, what was read last
 * and when (or that nothing was), and the command that takes the wait up again.
 */
export class WaitUnreachableError extends NetworkError {
  readonly fault: PollFault;
  constructor(w: UnreachableWait) {
    const { error, count, forMs } = w.fault;
    const from = error instanceof NetworkError || error instanceof ApiError ? error : undefined;
    super(from?.method ?? 'GET', from?.path ?? '', error, w.origin);
    this.name = 'WaitUnreachableError';
    this.fault = w.fault;
    const failed =
      count === 1 ? 'the latest read failed' : `${count} reads in a row failed over ${durationText(forMs)}`;
    const read =
      w.lastText === undefined || w.lastAgeMs === undefined
        ? `${w.what} was never read`
        : `${w.what} was last read ${agoText(w.lastAgeMs)}, as ${w.lastText}`;
    this.message =
      `stopped waiting: the service at ${w.origin} is ${error instanceof ApiError ? 'failing' : 'unreachable'} ` +
      `(${faultCode(error)}; ${failed}); ${read}; ${w.goesOn}; once the service answers, ${w.resume}`;
    // A service that answered this wait before is at the right address: the address hint would mislead.
    if (w.lastText !== undefined)
      withHint(this, `the service answered this wait before; check that it is still running at ${w.origin}`);
  }
}
