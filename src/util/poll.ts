import { AsyncLocalStorage } from 'node:async_hooks';
import { ApiError, NetworkError, OutcomeUnknownError, withHint } from '../errors.js';
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

/**
 * The least time a read of a wait is given, on the run's clock: the read a wait makes at its
 * deadline, or one started just before it, has this long rather than none. A hung service thus
 * ends a wait at most this long after --wait-timeout.
 */
export const MIN_READ_MS = 2_000;

/**
 * The bound of the read of a wait under way: the client's requests made for it (src/api/client.ts)
 * stop their attempts, pauses and answers in flight at `at`, whatever --timeout and the retries
 * would allow, and end with ReadLimitError.
 */
export interface ReadLimit {
  /** when the read is given up, on the run's clock (ms, as `now`) */
  at: number;
  /** the run's clock */
  now: () => number;
  /** aborted when `at` passes in real time, with a ReadLimitError */
  signal: AbortSignal;
  /** the latest failed attempt of the read (a NetworkError or ApiError), set by the client before it repeats one */
  failure?: unknown;
}

/** The bound of the read under way, for the client; set by pollUntil around each read. */
export const readLimits = new AsyncLocalStorage<ReadLimit>();

/** A read of a wait given up at its bound (--wait-timeout, or how long failed reads may go on). */
export class ReadLimitError extends Error {
  constructor(
    /** how long the read was given, ms */
    readonly allowedMs?: number,
  ) {
    super(allowedMs === undefined ? 'the read was given up at its bound' : `no answer in ${durationText(allowedMs)}`);
    this.name = 'ReadLimitError';
  }
}

/** The error a read given up at `limit` ends with, or undefined while it may go on. */
export function readLimitPassed(limit: ReadLimit): unknown {
  if (limit.signal.aborted) return limit.signal.reason;
  return limit.now() >= limit.at ? new ReadLimitError() : undefined;
}

/** A run of failed reads: the latest one's error, how many in a row, for how long. */
export interface PollFault {
  error: unknown;
  /** failed reads in a row, this one included */
  count: number;
  /** ms from the start of the first of them to the end of the latest */
  forMs: number;
}

/** What a wait knew when its deadline passed, its latest read having succeeded or gone unanswered. */
export interface PollTimeout<T> {
  /** what the latest read that answered read; undefined when none did */
  last: T | undefined;
  /** ms since `last` was read; undefined when nothing was */
  lastAgeMs: number | undefined;
  /** the read under way at the deadline was given up: the service had not answered it */
  unanswered?: true | undefined;
}

/** What a wait knew when it ended on failed reads: what it read last (if ever), and the fault. */
export interface PollUnreachable<T> {
  last: T | undefined;
  /** ms since `last` was read; undefined when nothing was */
  lastAgeMs: number | undefined;
  fault: PollFault;
}

export interface PollHandlers<T> {
  /**
   * The error of a wait whose deadline passed, the latest read having succeeded, or having had
   * no answer at all by then (exit 8): a hung service is not known to be gone, nor the thing
   * waited for to have ended.
   */
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

/** The timeouts that gave up a read the service had not answered: the service did not answer in time. */
const unansweredTimeouts = new WeakSet<object>();

/** Whether a wait ended at its deadline with a read the service had not answered. */
export function endedUnanswered(err: unknown): boolean {
  return typeof err === 'object' && err !== null && unansweredTimeouts.has(err);
}

/**
 * `read()` under `limit`: the client's requests made for it honour it (readLimits), and should
 * anything else hold the read, it is left to itself once `limit.signal` aborts.
 */
function limitedRead<T>(read: () => Promise<T>, limit: ReadLimit): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const abandon = () => reject(limit.signal.reason);
    limit.signal.addEventListener('abort', abandon, { once: true });
    readLimits.run(limit, read).then(
      (value) => {
        limit.signal.removeEventListener('abort', abandon);
        resolve(value);
      },
      (err: unknown) => {
        limit.signal.removeEventListener('abort', abandon);
        reject(err);
      },
    );
  });
}

/**
 * Reads `read()` until `done(value)` holds, with growing pauses. A transient fault of one read
 * does not end the wait, a run of them does (`handlers.unreachable`); so does the deadline
 * (`handlers.timeout`). Each read is bounded too: it is given up at the deadline, and at the
 * end of `maxFaultMs` from the first failed read of a run (or from its own start), whatever its
 * requests' --timeout and retries would allow (MIN_READ_MS at least). A read given up at the
 * deadline without any answer ends the wait as a timeout; one that had met faults, or given up
 * at `maxFaultMs`, as a failed read.
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
  const lastAge = () => (lastAt === undefined ? undefined : now() - lastAt);
  for (;;) {
    const started = now();
    const faultBound = (fault ? faultSince : started) + maxFaultMs;
    const bound = Math.min(deadline, faultBound);
    const at = Math.max(bound, started + MIN_READ_MS);
    const controller = new AbortController();
    // Real time, as the requests' own --timeout: a read the service never answers moves no pretend clock.
    const timer = setTimeout(
      () => controller.abort(new ReadLimitError(at - started)),
      Math.min(MAX_TIMER_MS, Math.max(0, at - now())),
    );
    const limit: ReadLimit = { at, now, signal: controller.signal };
    try {
      const value = await limitedRead(read, limit);
      last = value;
      lastAt = now();
      if (fault) {
        fault = undefined;
        handlers.onRecover?.();
      }
      if (done(value)) return value;
    } catch (err) {
      const givenUp = err instanceof ReadLimitError || controller.signal.aborted;
      if (!givenUp && !isTransient(err)) throw err;
      // A read given up at the deadline that met no fault had no answer at all: the wait timed out.
      if (givenUp && deadline <= faultBound && limit.failure === undefined && !fault) {
        const end = handlers.timeout({ last, lastAgeMs: lastAge(), unanswered: true });
        unansweredTimeouts.add(end);
        throw end;
      }
      const error = givenUp ? (limit.failure ?? new ReadLimitError(at - started)) : err;
      if (!fault) faultSince = started;
      fault = { error, count: (fault?.count ?? 0) + 1, forMs: now() - faultSince };
      if (givenUp || fault.count >= maxFaults || fault.forMs >= maxFaultMs) throw unreachable(fault);
      handlers.onFault?.(fault);
    } finally {
      clearTimeout(timer);
    }
    const left = deadline - now();
    if (left <= 0) {
      if (fault) throw unreachable(fault);
      // The latest read succeeded, so `last` is what it read.
      throw handlers.timeout({ last, lastAgeMs: lastAge() });
    }
    // A run of failures gets one more read at its bound rather than ending between reads.
    const faultLeft = fault ? faultSince + maxFaultMs - now() : Infinity;
    await sleep(Math.max(0, Math.min(interval, left, faultLeft)), opts.signal);
    interval = Math.min(interval * growth, maxInterval);
  }
}

/** The longest a timer may be set for (setTimeout's bound, about 24.8 days). */
const MAX_TIMER_MS = 2_147_483_647;

/** `ECONNREFUSED`, `503 service_unavailable`: what a failed read met, briefly. */
export function faultCode(err: unknown): string {
  if (err instanceof ReadLimitError) return err.message;
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

/**
 * Whether `err`, the end of some work, shows the service unreachable: a request that failed for
 * a network reason even after its retries (a write whose outcome that left unknown included), a
 * wait that ended on such reads, or one whose deadline passed with a read the service had not
 * answered. A service answering 5xx is failing, not unreachable.
 */
export function foundUnreachable(err: unknown): boolean {
  if (err instanceof WaitUnreachableError) return !(err.fault.error instanceof ApiError);
  if (endedUnanswered(err)) return true;
  if (err instanceof OutcomeUnknownError) return !(err.cause instanceof ApiError);
  return err instanceof NetworkError;
}

/** `ECONNREFUSED`, `no answer in 2 min`: what showed the service unreachable, briefly. */
function unreachableCode(err: unknown): string {
  if (err instanceof WaitUnreachableError) return faultCode(err.fault.error);
  if (endedUnanswered(err)) return 'a wait had no answer by its deadline';
  return faultCode(err instanceof OutcomeUnknownError ? err.cause : err);
}

/**
 * Work a run did not start, or stopped before its next write, because the run had found the
 * service unreachable (foundUnreachable): exit 1 and `network_error`, as the fault it follows.
 * `head` says which (`not started`), `tail` what was sent (`nothing was sent for it`).
 */
export class UnreachableStopError extends NetworkError {
  constructor(head: string, found: unknown, origin: string, tail: string) {
    super('', '', found, origin);
    this.name = 'UnreachableStopError';
    this.message = `${head}: the service at ${origin} was found unreachable in this run (${unreachableCode(found)}); ${tail}`;
  }
}
