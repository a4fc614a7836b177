import { describe, expect, it } from 'vitest';
import { DELIVERY_LATENCY_P95_MS, WEBHOOK_RETRY_DELAYS_S } from '../../../src/contract/events.js';
import {
  MAX_REMEMBERED_EVENTS,
  REPLAY_WINDOW_MS,
  ReplayWindow,
  parseEventTimestamp,
} from '../../../src/commands/webhooks/shared/replay-window.js';
import { eventKey } from '../../../src/commands/webhooks/shared/receiver.js';

const MINUTE = 60_000;
const T0 = Date.UTC(2025, 0, 2, 3, 4, 5, 678);

describe('parseEventTimestamp', () => {
  it("reads the contract's shape as UTC, and the ISO forms with any fraction and a zone", () => {
    expect(parseEventTimestamp('2025-01-02 03:04:05.678')).toBe(T0);
    expect(parseEventTimestamp('2025-01-02 03:04:05')).toBe(T0 - 678);
    expect(parseEventTimestamp('2025-01-02 03:04:05.678123')).toBe(T0);
    expect(parseEventTimestamp('2025-01-02T03:04:05.678Z')).toBe(T0);
    expect(parseEventTimestamp('2025-01-02T05:04:05.678+02:00')).toBe(T0);
    expect(parseEventTimestamp('2025-01-01T22:04:05.678-0500')).toBe(T0);
    expect(parseEventTimestamp('2024-02-29 00:00:00.000')).toBe(Date.UTC(2024, 1, 29));
  });

  it('refuses anything else', () => {
    for (const text of [
      '',
      '2025-01-02',
      '2025-1-2 03:04:05.678',
      '2025-02-30 00:00:00.000',
      '2025-13-01 00:00:00.000',
      '2025-01-02 24:00:00.000',
      '2025-01-02 03:60:00.000',
      '2025-01-02 03:04:05.678 UTC',
      '2025-01-02 03:04:05.678+25:00',
      ' 2025-01-02 03:04:05.678',
    ])
      expect(parseEventTimestamp(text), text).toBeUndefined();
    for (const value of [undefined, null, T0, {}, ['2025-01-02 03:04:05.678']])
      expect(parseEventTimestamp(value)).toBeUndefined();
  });
});

describe('ReplayWindow', () => {
  it("is longer than the contract's delivery latency and retries together", () => {
    const retries = WEBHOOK_RETRY_DELAYS_S.reduce((a, b) => a + b, 0) * 1000;
    expect(REPLAY_WINDOW_MS).toBeGreaterThan(DELIVERY_LATENCY_P95_MS + retries);
    expect(REPLAY_WINDOW_MS).toBe(60 * MINUTE);
  });

  it('takes a timestamp up to the window old and a little ahead of the clock, and says why it refuses others', () => {
    const w = new ReplayWindow(() => T0);
    expect(w.outside(T0)).toBeUndefined();
    expect(w.outside(T0 - REPLAY_WINDOW_MS)).toBeUndefined();
    expect(w.outside(T0 - REPLAY_WINDOW_MS - 1)).toBe('it is 60 min old, older than the 60 min replay window');
    expect(w.outside(T0 - 3 * 60 * MINUTE)).toBe('it is 180 min old, older than the 60 min replay window');
    expect(w.outside(T0 + 5 * MINUTE)).toBeUndefined();
    expect(w.outside(T0 + 10 * MINUTE)).toBe(
      "it is 10 min ahead of this machine's clock (more than 5 min): check the clocks",
    );
  });

  it('remembers an event until its timestamp leaves the window, never before, and forgets it within a minute after', () => {
    let now = T0;
    const w = new ReplayWindow(() => now);
    const at = T0 - 14 * MINUTE;
    w.record('a', at);
    // stamped ahead of the clock: remembered until its own timestamp is the window old
    w.record('b', T0 + 4 * MINUTE);
    for (now = T0; now <= at + REPLAY_WINDOW_MS; now += 7_000) expect(w.has('a')).toBe(true);
    now = at + REPLAY_WINDOW_MS;
    expect(w.has('a')).toBe(true);
    expect(w.outside(at)).toBeUndefined();
    now = at + REPLAY_WINDOW_MS + 1;
    // from here on a copy is refused by its timestamp, so the event may go
    expect(w.outside(at)).toBeDefined();
    now = at + REPLAY_WINDOW_MS + MINUTE;
    expect(w.has('a')).toBe(false);
    now = T0 + 4 * MINUTE + REPLAY_WINDOW_MS;
    expect(w.has('b')).toBe(true);
    now += MINUTE;
    expect(w.has('b')).toBe(false);
    expect(w.size).toBe(0);
  });

  it('when full, has no room and forgets nothing until the window passes; says when to try again', () => {
    let now = T0;
    const w = new ReplayWindow(() => now, 3);
    expect(w.retryAfterS()).toBe(1);
    for (const [i, k] of ['a', 'b', 'c'].entries()) {
      expect(w.room()).toBe(3 - i);
      w.record(k, T0 - i * MINUTE);
    }
    expect(w.room()).toBe(0);
    // recording again is no new entry
    w.record('a', T0);
    expect(w.size).toBe(3);
    now = T0 + 30 * MINUTE;
    expect(['a', 'b', 'c'].every((k) => w.has(k))).toBe(true);
    expect(w.room()).toBe(0);
    // c, stamped two minutes before T0, leaves first: 28 to 29 minutes from now
    const after = w.retryAfterS();
    expect(after).toBeGreaterThanOrEqual(28 * 60);
    expect(after).toBeLessThanOrEqual(29 * 60);
    now += after * 1000;
    expect(w.has('c')).toBe(false);
    expect(w.room()).toBe(1);
  });

  it('a genuine event is still remembered after 200,000 signed junk events; the junk beyond the bound is refused, not stored', () => {
    const now = T0;
    const w = new ReplayWindow(() => now);
    const secret = 'a'.repeat(64);
    const genuine = eventKey(secret, 'load_completed', 'evt_genuine');
    w.record(genuine, T0 - 14 * MINUTE);
    let refused = 0;
    for (let i = 0; i < 200_000; i++) {
      const key = eventKey(secret, 'load_completed', `evt_junk_${i}`);
      if (w.has(key)) continue;
      if (w.room() > 0) w.record(key, T0 - (i % 40) * MINUTE);
      else refused++;
    }
    expect(w.size).toBe(MAX_REMEMBERED_EVENTS);
    expect(refused).toBe(1);
    expect(w.has(genuine)).toBe(true);
    // 200,000 map entries take a moment on a slow machine; nothing here is timed
  }, 60_000);

  it('keys an event by the endpoint that signed it, its type and its id', () => {
    const a = 'a'.repeat(64);
    const b = 'b'.repeat(64);
    const keys = new Set([
      eventKey(a, 'load_completed', 'evt_1'),
      eventKey(b, 'load_completed', 'evt_1'),
      eventKey(a, 'load_started', 'evt_1'),
      eventKey(a, 'load_completed', 'evt_2'),
      eventKey(a, undefined, 'evt_1'),
    ]);
    expect(keys.size).toBe(5);
    expect(eventKey(a, 'load_completed', 'evt_1')).toBe(eventKey(a, 'load_completed', 'evt_1'));
    expect([...keys].some((k) => k.includes(a))).toBe(false);
  });
});
