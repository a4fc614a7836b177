import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, exitCodeFor, NetworkError, OutcomeUnknownError } from '../../src/errors.js';
import { errorJson } from '../../src/output/errors.js';
import {
  endedUnanswered,
  foundUnreachable,
  MAX_FAULT_MS,
  MIN_READ_MS,
  pollUntil,
  ReadLimitError,
  readLimits,
  UnreachableStopError,
  WaitUnreachableError,
  type PollFault,
  type PollHandlers,
  type PollOptions,
  type PollTimeout,
  type PollUnreachable,
} from '../../src/util/poll.js';

// Each read of a wait is bounded: given up at --wait-timeout, and at the bound of failed reads
// (2 minutes), however long its requests would go on. The bound is kept in real time (a read
// the service never answers moves no pretend clock): these tests move vitest's fake timers.

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
});
afterEach(() => {
  vi.useRealTimers();
});

/** The run's clock: it moves only when the wait pauses. */
function pretendTime() {
  let t = 5_000_000;
  return {
    now: () => t,
    sleep: async (ms: number) => {
      t += ms;
    },
  };
}

class Ended extends Error {
  constructor(
    readonly kind: 'timeout' | 'unreachable',
    readonly end: PollTimeout<string> | PollUnreachable<string>,
  ) {
    super(kind);
  }
}

const handlers: PollHandlers<string> = {
  timeout: (end) => new Ended('timeout', end),
  unreachable: (end) => new Ended('unreachable', end),
};

/** A read that answers each step in turn: a value, an error, or `hang` (never settles). */
const hang = Symbol('hang');
function scripted(script: Array<string | Error | typeof hang>) {
  let i = 0;
  return () => {
    const step = script[Math.min(i++, script.length - 1)]!;
    if (step === hang) return new Promise<string>(() => undefined);
    return step instanceof Error ? Promise.reject(step) : Promise.resolve(step);
  };
}

/** The wait's end, once the fake timers have passed `ms`. */
async function endAfter(p: Promise<unknown>, ms: number): Promise<Ended> {
  const ended = p.then(
    () => {
      throw new Error('the wait ended without an error');
    },
    (err: unknown) => {
      if (err instanceof Ended) return err;
      throw err;
    },
  );
  await vi.advanceTimersByTimeAsync(ms);
  return ended;
}

const refused = () =>
  new NetworkError('GET', '/api/v3.1/recipes/5/', Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }));

describe('a read of a wait the service does not answer', () => {
  const opts = (time: ReturnType<typeof pretendTime>, timeoutMs: number): PollOptions => ({
    timeoutMs,
    intervalMs: 1000,
    now: time.now,
    sleep: time.sleep,
  });

  it('is given up at --wait-timeout: the wait times out (exit 8), having read nothing', async () => {
    const time = pretendTime();
    const wait = pollUntil(scripted([hang]), () => false, opts(time, 5000), handlers);
    const e = await endAfter(wait, 5000);
    expect(e.kind).toBe('timeout');
    expect(e.end).toEqual({ last: undefined, lastAgeMs: undefined, unanswered: true });
    expect(endedUnanswered(e)).toBe(true);
    // A fleet takes it as the service found unreachable.
    expect(foundUnreachable(e)).toBe(true);
  });

  it('after good reads: the timeout says what was read last, and that the next read went unanswered', async () => {
    const time = pretendTime();
    const wait = pollUntil(scripted(['building', hang]), () => false, opts(time, 10_000), handlers);
    const e = await endAfter(wait, 10_000);
    expect(e.kind).toBe('timeout');
    expect(e.end).toMatchObject({ last: 'building', lastAgeMs: 1000, unanswered: true });
  });

  it('with a long deadline: given up after 2 minutes, the wait ends as unreachable (exit 1), no answer', async () => {
    const time = pretendTime();
    const wait = pollUntil(scripted(['building', hang]), () => false, opts(time, 30 * 60_000), handlers);
    const e = await endAfter(wait, MAX_FAULT_MS);
    expect(e.kind).toBe('unreachable');
    const { fault, last } = e.end as PollUnreachable<string>;
    expect(last).toBe('building');
    expect(fault.error).toBeInstanceOf(ReadLimitError);
    expect((fault.error as Error).message).toBe('no answer in 2 min');
    const err = new WaitUnreachableError({
      origin: 'http://127.0.0.1:4010',
      what: 'recipe 5',
      lastText: 'building',
      lastAgeMs: 0,
      fault,
      goesOn: 'ending the wait does not stop the build',
      resume: 'resume the wait with `edp recipes poll 5 -w 101`',
    });
    expect(err.message).toContain('is unreachable (no answer in 2 min; the latest read failed)');
    expect(exitCodeFor(err)).toBe(1);
  });

  it('a read that had met faults before its bound ends the wait as unreachable, with that fault', async () => {
    const time = pretendTime();
    const read = () => {
      // What the client records before repeating an attempt; the read then waits out its pause.
      readLimits.getStore()!.failure = refused();
      return new Promise<string>(() => undefined);
    };
    const e = await endAfter(
      pollUntil(read, () => false, opts(time, 5000), handlers),
      5000,
    );
    expect(e.kind).toBe('unreachable');
    expect((e.end as PollUnreachable<string>).fault).toMatchObject({ count: 1 });
    expect((e.end as PollUnreachable<string>).fault.error).toBeInstanceOf(NetworkError);
  });

  it(`the read made at the deadline has ${MIN_READ_MS / 1000} s rather than none`, async () => {
    const time = pretendTime();
    let reads = 0;
    let answer: ((value: string) => void) | undefined;
    const read = () => {
      reads++;
      if (reads === 1) return Promise.resolve('building');
      return new Promise<string>((resolve) => (answer = resolve));
    };
    const wait = pollUntil(read, (v) => v === 'ready', opts(time, 1000), handlers);
    // The second read, made at the deadline, answers 1.5 s later (real time).
    await vi.advanceTimersByTimeAsync(1500);
    expect(reads).toBe(2);
    answer!('ready');
    await expect(wait).resolves.toBe('ready');
  });

  it('the bound is the read’s: nothing is bounded outside a wait, and each read gets its own', async () => {
    const time = pretendTime();
    expect(readLimits.getStore()).toBeUndefined();
    const bounds: number[] = [];
    const read = () => {
      bounds.push(readLimits.getStore()!.at - time.now());
      return Promise.resolve(bounds.length === 3 ? 'done' : 'building');
    };
    await expect(pollUntil(read, (v) => v === 'done', opts(time, 600_000), handlers)).resolves.toBe('done');
    // The 2-minute bound of failed reads, from each read's start, ahead of the 10-minute deadline.
    expect(bounds).toEqual([MAX_FAULT_MS, MAX_FAULT_MS, MAX_FAULT_MS]);
  });
});

describe('what shows a fleet the service unreachable', () => {
  const fault = (error: unknown): PollFault => ({ error, count: 5, forMs: 1000 });
  const wait = (error: unknown) =>
    new WaitUnreachableError({
      origin: 'http://127.0.0.1:4010',
      what: 'recipe 5',
      lastText: undefined,
      lastAgeMs: undefined,
      fault: fault(error),
      goesOn: 'ending the wait does not stop the build',
      resume: 'resume the wait',
    });
  const busy = new ApiError({ status: 503, code: 'service_unavailable', message: 'busy' });

  it('a network fault after retries, a write whose answer was lost on the network, a wait ended on them', () => {
    expect(foundUnreachable(refused())).toBe(true);
    expect(foundUnreachable(new OutcomeUnknownError('POST', '/x', refused().cause))).toBe(true);
    expect(foundUnreachable(wait(refused()))).toBe(true);
  });

  it('not a service answering 5xx, nor any other failure', () => {
    expect(foundUnreachable(busy)).toBe(false);
    expect(foundUnreachable(new OutcomeUnknownError('POST', '/x', busy))).toBe(false);
    expect(foundUnreachable(wait(busy))).toBe(false);
    expect(foundUnreachable(new Error('no'))).toBe(false);
  });

  it('work not started for it: exit 1, network_error, naming the address and the fault', () => {
    const err = new UnreachableStopError('not started', wait(refused()), 'http://127.0.0.1:4010', 'nothing was sent');
    expect(err.message).toBe(
      'not started: the service at http://127.0.0.1:4010 was found unreachable in this run (ECONNREFUSED); nothing was sent',
    );
    expect(exitCodeFor(err)).toBe(1);
    expect(errorJson(err).error.code).toBe('network_error');
  });
});
