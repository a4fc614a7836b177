/** How the sandbox's time passes: with the wall clock, or only when moved (`advance`). */
export type ClockMode = 'real' | 'manual';

/** A timer scheduled on a `Clock`: cancel it with `Clock.clearTimeout`. */
export interface ClockTimer {
  readonly due: number;
}

interface Entry extends ClockTimer {
  readonly seq: number;
  /** Kept by `dropWork` (a request held by the latency fault), not the service's work. */
  readonly keep: boolean;
  readonly fn: () => void;
  handle: NodeJS.Timeout | undefined;
}

/**
 * The sandbox's clock: what time it is for the service (timestamps, token and link lifetimes)
 * and the timers that finish its work (builds, loads, extract runs, webhook deliveries, the
 * latency fault).
 *
 * In `real` mode time follows the wall clock, plus what `advance` added: a timer fires after its
 * delay of wall time, or sooner when the clock is moved past it. In `manual` mode time stands
 * still until `advance` moves it: then every timer that becomes due fires, in order of due time,
 * each seeing the clock at its own due time. Either way a timer due now fires before the sandbox
 * answers its next request (`runDue`), so what a reader sees depends only on the clock.
 */
export class Clock {
  offsetMs = 0;
  private modeNow: ClockMode;
  /** The wall time at which a manual clock stopped. */
  private frozenAt: number;
  private readonly entries = new Set<Entry>();
  private seq = 0;
  private running = false;
  private closed = false;

  constructor(mode: ClockMode = 'real') {
    this.modeNow = mode;
    this.frozenAt = Date.now();
  }

  get mode(): ClockMode {
    return this.modeNow;
  }

  now(): number {
    return (this.modeNow === 'manual' ? this.frozenAt : Date.now()) + this.offsetMs;
  }
  iso(): string {
    return new Date(this.now()).toISOString();
  }

  /** How many timers wait to fire. */
  get pending(): number {
    return this.entries.size;
  }

  /**
   * Runs `fn` once the clock reaches `ms` from now. A `keep` timer is not the service's work
   * (a request held by the latency fault): a reset or restore of the state leaves it.
   */
  setTimeout(fn: () => void, ms: number, keep = false): ClockTimer {
    const entry: Entry = { due: this.now() + Math.max(0, ms), seq: this.seq++, keep, fn, handle: undefined };
    this.entries.add(entry);
    this.arm(entry);
    return entry;
  }

  clearTimeout(timer: ClockTimer | undefined): void {
    if (!timer) return;
    const entry = timer as Entry;
    if (entry.handle) clearTimeout(entry.handle);
    this.entries.delete(entry);
  }

  /** Moves the clock `ms` forward and fires every timer that becomes due, in order. */
  advance(ms: number): void {
    const target = this.now() + Math.max(0, ms);
    if (this.modeNow === 'manual') {
      // Each timer fires at its own time, so that what it reads of the clock (and schedules) is
      // what it would have been had the time passed.
      for (let next = this.nextDue(target); next; next = this.nextDue(target)) {
        this.offsetMs = Math.max(this.offsetMs, next.due - this.frozenAt);
        this.fire(next);
      }
      this.offsetMs = target - this.frozenAt;
      return;
    }
    this.offsetMs += Math.max(0, ms);
    this.runDue();
  }

  /**
   * Moves the clock to each pending timer in turn until none is left (what they schedule
   * included): the work in progress is done. Returns how far the clock moved (ms). Stops after
   * `limit` timers, so that work that keeps rescheduling itself cannot hold it forever.
   */
  settle(limit = 10_000): number {
    const from = this.now();
    for (let i = 0; i < limit; i++) {
      const next = this.nextDue(Infinity);
      if (!next) break;
      this.advance(Math.max(0, next.due - this.now()));
    }
    return this.now() - from;
  }

  /** Fires every timer due by now (those a wall-clock timer has not reached yet included). */
  runDue(): void {
    if (this.running) return;
    this.running = true;
    try {
      for (let next = this.nextDue(this.now()); next; next = this.nextDue(this.now())) this.fire(next);
    } finally {
      this.running = false;
    }
  }

  /** Switches between wall-clock and manual time; the time shown does not jump. */
  setMode(mode: ClockMode): void {
    if (mode === this.modeNow) return;
    const now = this.now();
    this.modeNow = mode;
    if (mode === 'manual') {
      this.frozenAt = Date.now();
      this.offsetMs = now - this.frozenAt;
    } else {
      this.offsetMs = now - Date.now();
    }
    for (const entry of this.entries) this.arm(entry);
  }

  /**
   * Drops the timers of the service's work (builds, runs, deliveries), keeping `keep` ones:
   * the state they would act on is being replaced (POST /_sandbox/reset, a snapshot restored).
   */
  dropWork(): void {
    for (const entry of this.entries) {
      if (entry.keep) continue;
      if (entry.handle) clearTimeout(entry.handle);
      this.entries.delete(entry);
    }
  }

  /** Sets the time and the mode (a reset or restore), without firing anything. */
  set(time: number, mode: ClockMode): void {
    this.setMode(mode);
    this.offsetMs = time - (mode === 'manual' ? this.frozenAt : Date.now());
    for (const entry of this.entries) this.arm(entry);
  }

  /** Drops every timer (the sandbox is closing). */
  close(): void {
    this.closed = true;
    for (const entry of this.entries) if (entry.handle) clearTimeout(entry.handle);
    this.entries.clear();
  }

  /** In real mode a wall-clock timer fires the entry at its time (and any due before it). */
  private arm(entry: Entry): void {
    if (entry.handle) clearTimeout(entry.handle);
    entry.handle = undefined;
    if (this.modeNow !== 'real' || this.closed) return;
    entry.handle = setTimeout(
      () => {
        entry.handle = undefined;
        this.runDue();
        // A wall-clock timer may fire a moment before the clock reads its due time.
        if (this.entries.has(entry)) this.fire(entry);
      },
      Math.max(0, entry.due - this.now()),
    );
    entry.handle.unref();
  }

  private nextDue(limit: number): Entry | undefined {
    let best: Entry | undefined;
    for (const e of this.entries) {
      if (e.due > limit) continue;
      if (!best || e.due < best.due || (e.due === best.due && e.seq < best.seq)) best = e;
    }
    return best;
  }

  private fire(entry: Entry): void {
    this.entries.delete(entry);
    if (entry.handle) clearTimeout(entry.handle);
    entry.handle = undefined;
    entry.fn();
  }
}
