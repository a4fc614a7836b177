import { durationText } from '../../../util/poll.js';

/**
 * How old a delivery's signed `timestamp` may be when it arrives: one hour. Deliveries come 20
 * to 26 minutes after the event at the 95th percentile and are retried over 17 seconds more;
 * the hour leaves as much again for the slowest deliveries and for a difference between the
 * service's clock and this one. An event is remembered until its timestamp is that old, and an
 * older delivery is refused, so no copy of an event is handed on twice, however late it comes.
 */
export const REPLAY_WINDOW_MS = 60 * 60_000;
/** How far ahead of this machine's clock a signed timestamp may be: clocks that differ a little. */
export const CLOCK_AHEAD_MS = 5 * 60_000;
/**
 * The most events remembered at once. Only validly signed events are remembered, each for at
 * most the window; when this many are, a new event is refused for now (the service delivers it
 * again) rather than forgetting one still inside the window. 200,000 is 55 events a second
 * for a whole hour, in about 35 MB.
 */
export const MAX_REMEMBERED_EVENTS = 200_000;

/** Entries leave in one-minute batches: at most a minute after their time, never before it. */
const BATCH_MS = 60_000;

const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:?\d{2})?$/;

/**
 * A delivery's `timestamp` as milliseconds since the epoch, or undefined when it is not one.
 * The contract's shape is `YYYY-MM-DD HH:MM:SS.mmm` (docs/contract-rules.md, Delivery) and
 * names no time zone: it is read as UTC, which the vendor's samples and the sandbox use. Any
 * number of fraction digits, a `T` and a zone (`Z`, `+02:00`) are accepted too.
 */
export function parseEventTimestamp(text: unknown): number | undefined {
  if (typeof text !== 'string') return undefined;
  const m = TIMESTAMP.exec(text);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return undefined;
  const base = Date.UTC(year, month - 1, day, hour, minute, second);
  // Date.UTC rolls 30 February over into March: such a date is not one.
  if (new Date(base).getUTCDate() !== day) return undefined;
  const millis = m[7] === undefined ? 0 : Math.floor(Number(`0.${m[7]}`) * 1000);
  let offset = 0;
  const zone = m[8];
  if (zone !== undefined && zone !== 'Z') {
    const digits = zone.replace(':', '');
    const hours = Number(digits.slice(1, 3));
    const minutes = Number(digits.slice(3, 5));
    if (hours > 23 || minutes > 59) return undefined;
    offset = (zone.startsWith('-') ? -1 : 1) * (hours * 60 + minutes) * 60_000;
  }
  return base + millis - offset;
}

/**
 * The events handed on recently, each by what its delivery signs (endpoint, type, id), kept
 * until its signed timestamp leaves the window. A delivery stamped outside the window is
 * refused, and every one inside it is remembered for as long as it stays inside, so a repeat
 * is either recognised or refused: never handed on again. Memory is bounded by refusing new
 * events when full (`room`), never by forgetting one early.
 */
export class ReplayWindow {
  /** event key → the batch it leaves with */
  private readonly batchOf = new Map<string, number>();
  /** batch → the keys that leave with it */
  private readonly batches = new Map<number, string[]>();
  private nextSweep = Infinity;

  constructor(
    private readonly now: () => number = Date.now,
    readonly capacity = MAX_REMEMBERED_EVENTS,
    readonly windowMs = REPLAY_WINDOW_MS,
    readonly aheadMs = CLOCK_AHEAD_MS,
  ) {}

  /** Drops the batches whose every entry's timestamp has left the window. */
  private sweep(): void {
    const t = this.now();
    if (t < this.nextSweep) return;
    let next = Infinity;
    for (const [batch, keys] of this.batches) {
      const end = (batch + 1) * BATCH_MS;
      if (end > t) {
        next = Math.min(next, end);
        continue;
      }
      for (const key of keys) if (this.batchOf.get(key) === batch) this.batchOf.delete(key);
      this.batches.delete(batch);
    }
    this.nextSweep = next;
  }

  /**
   * Why a delivery stamped `at` cannot be taken (older than the window, or too far ahead of
   * this clock), or undefined when it is inside the window.
   */
  outside(at: number): string | undefined {
    const age = this.now() - at;
    if (age > this.windowMs)
      return `it is ${durationText(age)} old, older than the ${durationText(this.windowMs)} replay window`;
    if (-age > this.aheadMs)
      return `it is ${durationText(-age)} ahead of this machine's clock (more than ${durationText(this.aheadMs)}): check the clocks`;
    return undefined;
  }

  /** Whether the event was handed on while its timestamp is inside the window. */
  has(key: string): boolean {
    this.sweep();
    return this.batchOf.has(key);
  }

  /**
   * Remembers an event stamped `at` until that timestamp leaves the window. Never forgets
   * another to make room: callers ask `room` first.
   */
  record(key: string, at: number): void {
    this.sweep();
    const batch = Math.floor((at + this.windowMs) / BATCH_MS);
    const known = this.batchOf.get(key);
    if (known !== undefined && known >= batch) return;
    this.batchOf.set(key, batch);
    const keys = this.batches.get(batch);
    if (keys) keys.push(key);
    else this.batches.set(batch, [key]);
    this.nextSweep = Math.min(this.nextSweep, (batch + 1) * BATCH_MS);
  }

  /** How many more events can be remembered now. */
  room(): number {
    this.sweep();
    return Math.max(0, this.capacity - this.batchOf.size);
  }

  /** Seconds until the next entries leave the window (at least 1): when to try again when full. */
  retryAfterS(): number {
    this.sweep();
    if (this.nextSweep === Infinity) return 1;
    return Math.max(1, Math.ceil((this.nextSweep - this.now()) / 1000));
  }

  get size(): number {
    this.sweep();
    return this.batchOf.size;
  }
}
