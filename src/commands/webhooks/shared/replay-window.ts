import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { UsageError } from '../../../errors.js';
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
  /** event key → its signed timestamp */
  private readonly atOf = new Map<string, number>();
  /** batch → the keys that leave with it */
  private readonly batches = new Map<number, string[]>();
  private nextSweep = Infinity;
  /** Told of each event remembered anew (SeenFile keeps them across restarts). */
  onRecord: ((key: string, at: number) => void) | undefined;

  constructor(
    private readonly now: () => number = Date.now,
    readonly capacity = MAX_REMEMBERED_EVENTS,
    readonly windowMs = REPLAY_WINDOW_MS,
    readonly aheadMs = CLOCK_AHEAD_MS,
  ) {}

  /** The batch an event stamped `at` leaves with. */
  private batchOf(at: number): number {
    return Math.floor((at + this.windowMs) / BATCH_MS);
  }

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
      for (const key of keys) {
        const at = this.atOf.get(key);
        if (at !== undefined && this.batchOf(at) === batch) this.atOf.delete(key);
      }
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
    return this.atOf.has(key);
  }

  /**
   * Remembers an event stamped `at` until that timestamp leaves the window. Never forgets
   * another to make room: callers ask `room` first.
   */
  record(key: string, at: number): void {
    this.sweep();
    const batch = this.batchOf(at);
    const known = this.atOf.get(key);
    if (known !== undefined && this.batchOf(known) >= batch) return;
    this.atOf.set(key, at);
    const keys = this.batches.get(batch);
    if (keys) keys.push(key);
    else this.batches.set(batch, [key]);
    this.nextSweep = Math.min(this.nextSweep, (batch + 1) * BATCH_MS);
    this.onRecord?.(key, at);
  }

  /** The events remembered now, with their signed timestamps. */
  entries(): IterableIterator<[string, number]> {
    this.sweep();
    return this.atOf.entries();
  }

  /** How many more events can be remembered now. */
  room(): number {
    this.sweep();
    return Math.max(0, this.capacity - this.atOf.size);
  }

  /** Seconds until the next entries leave the window (at least 1): when to try again when full. */
  retryAfterS(): number {
    this.sweep();
    if (this.nextSweep === Infinity) return 1;
    return Math.max(1, Math.ceil((this.nextSweep - this.now()) / 1000));
  }

  get size(): number {
    this.sweep();
    return this.atOf.size;
  }
}

/** The first line of a seen-events file: what it is, so that no other file is taken for one. */
const SEEN_HEADER = '{"edp_webhooks_seen_events":1}';

/**
 * The events a listener handed on, kept across restarts in a file beside its secrets file
 * (`FILE.seen`), so that a delivery captured before a restart and sent again afterwards is
 * still recognised. One JSON line per event, `[key, signed timestamp]`, after a header line;
 * keys name an endpoint by a short digest of its secret, never the secret. The file is mode 0600.
 * Each event is appended as it is remembered, before the service gets its answer; at start, and
 * whenever the appended lines outnumber the events remembered (and 10,000), the file is rewritten
 * with the events still inside the window only (a temporary file, synced, renamed over it), so
 * it holds at most about twice what memory does. A line cut short by a killed run is skipped.
 */
export class SeenFile {
  private fd: number | undefined;
  private appended = 0;
  private failed = false;

  private constructor(
    readonly path: string,
    private readonly window: ReplayWindow,
    private readonly warn: (text: string) => void,
  ) {}

  /**
   * Fills `window` with the events of the file still inside the window, rewrites the file with
   * them and keeps each event `window` remembers from now on. How many were read back is
   * `restored`. A file that is not one of these, or cannot be read or written, is a usage error.
   */
  static open(path: string, window: ReplayWindow, warn: (text: string) => void): SeenFile & { restored: number } {
    const file = new SeenFile(path, window, warn);
    let text = '';
    try {
      text = readFileSync(path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw file.problem('cannot read', err);
    }
    const lines = text.split('\n');
    if (text !== '' && lines[0] !== SEEN_HEADER)
      throw new UsageError(
        `--secrets-file: ${path} is where the listener keeps the events it handed on, and it holds something else; move it away`,
      );
    let restored = 0;
    for (const line of lines.slice(1)) {
      const entry = parsedLine(line);
      if (!entry || window.outside(entry[1]) !== undefined || window.room() === 0) continue;
      if (!window.has(entry[0])) restored++;
      window.record(entry[0], entry[1]);
    }
    file.rewrite(true);
    window.onRecord = (key, at) => file.append(key, at);
    return Object.assign(file, { restored });
  }

  private problem(what: string, err: unknown): UsageError {
    const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    return new UsageError(
      `--secrets-file: ${what} ${this.path}, where the listener keeps the events it handed on (${code}); check the folder's permissions`,
    );
  }

  private append(key: string, at: number): void {
    if (this.fd === undefined) return;
    try {
      writeSync(this.fd, `${JSON.stringify([key, at])}\n`);
      this.appended++;
      if (this.appended > Math.max(10_000, this.window.size)) this.rewrite(false);
    } catch (err) {
      // Memory still holds the event for this run; only a restart would forget it.
      if (!this.failed)
        this.warn(
          `${this.path}: cannot keep the events handed on (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); they are remembered until the listener stops`,
        );
      this.failed = true;
    }
  }

  /** The file replaced by the events remembered now; `first`: at start, where failing is an error. */
  private rewrite(first: boolean): void {
    const temporary = `${this.path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      const lines = [SEEN_HEADER, ...[...this.window.entries()].map((e) => JSON.stringify(e))];
      const fd = openSync(temporary, 'wx', 0o600);
      try {
        writeSync(fd, `${lines.join('\n')}\n`);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      renameSync(temporary, this.path);
      if (this.fd !== undefined) closeSync(this.fd);
      this.fd = undefined;
      this.fd = openSync(this.path, 'a', 0o600);
      this.appended = 0;
    } catch (err) {
      try {
        unlinkSync(temporary);
      } catch {
        // not written
      }
      if (first) throw this.problem('cannot write', err);
      throw err;
    }
  }

  close(): void {
    this.window.onRecord = undefined;
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}

/** A line of a seen-events file, `[key, timestamp]`, or undefined for a line cut short or not one. */
function parsedLine(line: string): [string, number] | undefined {
  if (line === '') return undefined;
  try {
    const entry = JSON.parse(line) as unknown;
    if (Array.isArray(entry) && typeof entry[0] === 'string' && Number.isFinite(entry[1]))
      return [entry[0], entry[1] as number];
  } catch {
    // cut short by a run that was killed while appending
  }
  return undefined;
}
