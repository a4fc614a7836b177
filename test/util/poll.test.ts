import { describe, expect, it } from 'vitest';
import { ApiError, exitCodeFor, NetworkError } from '../../src/errors.js';
import { errorJson, errorLines } from '../../src/output/errors.js';
import {
  MAX_FAULT_MS,
  MAX_FAULTS,
  faultLine,
  pollUntil,
  WaitUnreachableError,
  type PollFault,
  type PollHandlers,
  type PollOptions,
} from '../../src/util/poll.js';

/** A clock that moves only when the wait pauses or a read takes time. */
function fakeTime() {
  let t = 1_000_000;
  const pauses: number[] = [];
  return {
    now: () => t,
    sleep: async (ms: number) => {
      pauses.push(ms);
      t += ms;
    },
    advance: (ms: number) => {
      t += ms;
    },
    pauses,
  };
}

const refused = () =>
  new NetworkError('GET', '/api/v3.1/recipes/5/', Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }));
const busy = () =>
  new ApiError({ status: 503, code: 'service_unavailable', message: 'busy', method: 'GET', path: '/x' });

class Ended extends Error {
  constructor(
    readonly kind: 'timeout' | 'unreachable',
    readonly end: unknown,
  ) {
    super(kind);
  }
}

/** Handlers that record what the wait told, and end it with an error that carries what it knew. */
function recorder<T>() {
  const events: string[] = [];
  const handlers: PollHandlers<T> = {
    timeout: (end) => new Ended('timeout', end),
    unreachable: (end) => new Ended('unreachable', end),
    onFault: (f: PollFault) => events.push(`fault ${f.count}`),
    onRecover: () => events.push('recover'),
  };
  return { events, handlers };
}

/** A read that answers each step of `script` in turn: a value, or an error to throw; the last step repeats. */
function scripted<T>(script: Array<T | Error>, time?: ReturnType<typeof fakeTime>, takesMs = 0) {
  let i = 0;
  return async (): Promise<T> => {
    const step = script[Math.min(i++, script.length - 1)]!;
    time?.advance(takesMs);
    if (step instanceof Error) throw step;
    return step;
  };
}

async function ended(p: Promise<unknown>): Promise<Ended> {
  try {
    await p;
  } catch (err) {
    if (err instanceof Ended) return err;
    throw err;
  }
  throw new Error('the wait did not end with an error');
}

describe('pollUntil', () => {
  const base = (time: ReturnType<typeof fakeTime>): PollOptions => ({
    timeoutMs: 60 * 60_000,
    intervalMs: 1000,
    now: time.now,
    sleep: time.sleep,
  });

  it('reads until done, each pause half as long again, up to the largest', async () => {
    const time = fakeTime();
    const { events, handlers } = recorder<string>();
    const value = await pollUntil(
      scripted(['a', 'a', 'a', 'a', 'b']),
      (v) => v === 'b',
      { ...base(time), maxIntervalMs: 2000 },
      handlers,
    );
    expect(value).toBe('b');
    expect(time.pauses).toEqual([1000, 1500, 2000, 2000]);
    expect(events).toEqual([]);
  });

  it('goes on after failed reads, telling each, and the recovery', async () => {
    const time = fakeTime();
    const { events, handlers } = recorder<string>();
    const value = await pollUntil(
      scripted<string>(['a', refused(), busy(), 'a', refused(), 'b']),
      (v) => v === 'b',
      base(time),
      handlers,
    );
    expect(value).toBe('b');
    expect(events).toEqual(['fault 1', 'fault 2', 'recover', 'fault 1', 'recover']);
  });

  it(`ends after ${MAX_FAULTS} failed reads in a row, with what it read last and when`, async () => {
    const time = fakeTime();
    const { events, handlers } = recorder<string>();
    const e = await ended(pollUntil(scripted<string>(['a', refused()]), () => false, base(time), handlers));
    expect(e.kind).toBe('unreachable');
    const end = e.end as { last: string; lastAgeMs: number; fault: PollFault };
    expect(end.last).toBe('a');
    expect(end.fault.count).toBe(MAX_FAULTS);
    expect(end.fault.error).toBeInstanceOf(NetworkError);
    // The pauses after the one good read: 1000, 1500, 2250, 3375, 5062.5 ms.
    expect(end.lastAgeMs).toBe(time.pauses.reduce((a, b) => a + b, 0));
    expect(events).toEqual(['fault 1', 'fault 2', 'fault 3', 'fault 4']);
  });

  it('ends on failed reads that last long, before their count is reached', async () => {
    const time = fakeTime();
    const { handlers } = recorder<string>();
    // Each read waits out the client's own repeats (a long Retry-After) before it fails.
    const read = scripted<string>([busy()], time, 50_000);
    const e = await ended(pollUntil(read, () => false, base(time), handlers));
    expect(e.kind).toBe('unreachable');
    const end = e.end as { last: undefined; lastAgeMs: undefined; fault: PollFault };
    expect(end.fault.count).toBeLessThan(MAX_FAULTS);
    expect(end.fault.forMs).toBeGreaterThanOrEqual(MAX_FAULT_MS);
    expect(end.last).toBeUndefined();
    expect(end.lastAgeMs).toBeUndefined();
  });

  it('reads once more at the bound of a run of failures rather than ending between reads', async () => {
    const time = fakeTime();
    const { handlers } = recorder<string>();
    const e = await ended(
      pollUntil(
        scripted<string>([refused()]),
        () => false,
        { ...base(time), intervalMs: 60_000, maxFaultMs: 90_000, maxFaults: 10 },
        handlers,
      ),
    );
    expect(e.kind).toBe('unreachable');
    expect(time.pauses).toEqual([60_000, 30_000]);
    expect((e.end as { fault: PollFault }).fault).toMatchObject({ count: 3, forMs: 90_000 });
  });

  it('failed reads that are not in a row never end the wait', async () => {
    const time = fakeTime();
    const { handlers } = recorder<string>();
    const script: Array<string | Error> = [];
    for (let i = 0; i < 20; i++) script.push(refused(), refused(), refused(), refused(), 'a');
    script.push('b');
    const value = await pollUntil(scripted(script), (v) => v === 'b', base(time), handlers);
    expect(value).toBe('b');
  });

  it('at the deadline after a good read: the timeout, with what was read and how long ago', async () => {
    const time = fakeTime();
    const { handlers } = recorder<string>();
    const e = await ended(pollUntil(scripted(['a']), () => false, { ...base(time), timeoutMs: 10_000 }, handlers));
    expect(e.kind).toBe('timeout');
    expect(e.end).toEqual({ last: 'a', lastAgeMs: 0 });
    // No pause runs past the deadline.
    expect(time.pauses.reduce((a, b) => a + b, 0)).toBe(10_000);
  });

  it('at the deadline while reads fail: the fault, not the timeout', async () => {
    const time = fakeTime();
    const { handlers } = recorder<string>();
    const e = await ended(
      pollUntil(scripted<string>(['a', refused()]), () => false, { ...base(time), timeoutMs: 3000 }, handlers),
    );
    expect(e.kind).toBe('unreachable');
    // Reads at 0 (good), 1 s, 2.5 s and 3 s (failed).
    expect(e.end).toMatchObject({ last: 'a', fault: { count: 3 } });
  });

  it('never read at all: the fault, with nothing read', async () => {
    const time = fakeTime();
    const { handlers } = recorder<string>();
    const e = await ended(
      pollUntil(scripted<string>([refused()]), () => false, { ...base(time), timeoutMs: 500 }, handlers),
    );
    expect(e.kind).toBe('unreachable');
    expect(e.end).toMatchObject({ last: undefined, lastAgeMs: undefined, fault: { count: 2 } });
  });

  it('an error that is not transient ends the wait at once, as it is', async () => {
    const time = fakeTime();
    const { handlers } = recorder<string>();
    const gone = new ApiError({ status: 404, code: 'not_found', message: 'gone' });
    await expect(pollUntil(scripted<string>(['a', gone]), () => false, base(time), handlers)).rejects.toBe(gone);
  });
});

describe('the error of a wait the service stopped answering', () => {
  const fault: PollFault = { error: refused(), count: 5, forMs: 9_400 };
  const wait = {
    origin: 'http://127.0.0.1:4010',
    what: 'recipe 5',
    fault,
    goesOn: 'ending the wait does not stop the build',
    resume: 'resume the wait with `edp recipes poll 5 -w 101`',
  };

  it('names the address, the fault, what was read last and when, and how to resume; exit 1, network_error', () => {
    const err = new WaitUnreachableError({ ...wait, lastText: 'building_dependencies', lastAgeMs: 12_300 });
    expect(err.message).toBe(
      'stopped waiting: the service at http://127.0.0.1:4010 is unreachable (ECONNREFUSED; 5 reads in a row failed over 9 s); ' +
        'recipe 5 was last read 12 s ago, as building_dependencies; ending the wait does not stop the build; ' +
        'once the service answers, resume the wait with `edp recipes poll 5 -w 101`',
    );
    expect(exitCodeFor(err)).toBe(1);
    expect(errorJson(err).error.code).toBe('network_error');
    expect(errorLines(err).at(-1)).toContain('the service answered this wait before');
  });

  it('says so when nothing was read, with the hint to check the address', () => {
    const err = new WaitUnreachableError({ ...wait, lastText: undefined, lastAgeMs: undefined });
    expect(err.message).toContain('recipe 5 was never read');
    expect(errorLines(err).at(-1)).toContain('--base-url');
  });

  it('calls a 5xx the service failing, with its status and code', () => {
    const err = new WaitUnreachableError({
      ...wait,
      fault: { error: busy(), count: 1, forMs: 0 },
      lastText: undefined,
      lastAgeMs: undefined,
    });
    expect(err.message).toContain('is failing (503 service_unavailable; the latest read failed)');
  });

  it('the live line says what failed and how many times in a row', () => {
    expect(faultLine({ error: refused(), count: 1, forMs: 0 })).toBe('service unreachable (ECONNREFUSED), retrying');
    expect(faultLine({ error: busy(), count: 3, forMs: 0 })).toBe(
      'service failing (503 service_unavailable), retrying (3 failed reads in a row)',
    );
  });
});
