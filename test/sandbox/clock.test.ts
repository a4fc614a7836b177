import { afterEach, describe, expect, it } from 'vitest';
import { Clock } from '../../src/sandbox/clock.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { control, http, sandbox } from '../helpers.js';

describe('the sandbox clock', () => {
  it('manual: time stands still; advance fires what becomes due, in order, each at its own time', () => {
    const clock = new Clock('manual');
    const start = clock.now();
    const fired: Array<[string, number]> = [];
    const at = (name: string) => () => fired.push([name, clock.now() - start]);
    clock.setTimeout(at('b'), 200);
    clock.setTimeout(at('a'), 100);
    clock.setTimeout(at('c'), 300);
    const cancelled = clock.setTimeout(at('x'), 150);
    clock.clearTimeout(cancelled);
    expect(clock.now()).toBe(start);
    clock.advance(199);
    expect(fired).toEqual([['a', 100]]);
    // What a timer schedules within the step fires in the same step, at its time.
    clock.setTimeout(() => clock.setTimeout(at('d'), 50), 1);
    clock.advance(101);
    expect(fired).toEqual([
      ['a', 100],
      ['b', 200],
      ['d', 250],
      ['c', 300],
    ]);
    expect(clock.now() - start).toBe(300);
    expect(clock.pending).toBe(0);
  });

  it('a timer due now fires at runDue (the next request), not when scheduled', () => {
    const clock = new Clock('manual');
    let fired = 0;
    clock.setTimeout(() => fired++, 0);
    expect(fired).toBe(0);
    clock.runDue();
    expect(fired).toBe(1);
  });

  it('settle moves the clock to each pending timer until none is left', () => {
    const clock = new Clock('manual');
    const start = clock.now();
    let ticks = 0;
    const tick = () => {
      if (++ticks < 5) clock.setTimeout(tick, 1000);
    };
    clock.setTimeout(tick, 1000);
    expect(clock.settle()).toBe(5000);
    expect(ticks).toBe(5);
    expect(clock.now() - start).toBe(5000);
  });

  it('real: advance fires a timer before the wall clock reaches it; switching modes keeps the time', () => {
    const clock = new Clock('real');
    let fired = false;
    clock.setTimeout(() => (fired = true), 3_600_000);
    clock.advance(3_600_000);
    expect(fired).toBe(true);
    const before = clock.now();
    clock.setMode('manual');
    expect(clock.now()).toBeGreaterThanOrEqual(before);
    const frozen = clock.now();
    expect(clock.now()).toBe(frozen);
    clock.close();
  });
});

describe('POST /_sandbox/clock', () => {
  let sb: Sandbox | undefined;
  afterEach(async () => {
    await sb?.close();
    sb = undefined;
  });

  it('moves the clock, settles the work pending, switches mode, and refuses bad bodies', async () => {
    sb = await sandbox({ buildSeconds: 60 });
    const before = await control(sb, 'GET', '/clock');
    expect(before).toMatchObject({ mode: 'manual', pending_timers: 0 });
    sb.store.clock.setTimeout(() => undefined, 90_000);
    const moved = await control(sb, 'POST', '/clock', { advance_seconds: 30 });
    expect(Date.parse(moved.now) - Date.parse(before.now)).toBe(30_000);
    expect(moved.pending_timers).toBe(1);
    const settled = await control(sb, 'POST', '/clock', { settle: true });
    expect(Date.parse(settled.now) - Date.parse(before.now)).toBe(90_000);
    expect(settled.pending_timers).toBe(0);
    expect((await control(sb, 'POST', '/clock', { mode: 'real' })).mode).toBe('real');
    for (const body of [{ advance_seconds: -1 }, { mode: 'fast' }, { settle: 'yes' }, {}]) {
      expect((await http(sb, 'POST', '/_sandbox/clock', { body })).status).toBe(400);
    }
  });
});
