/** The sandbox's clock; tests move it forward (link expiry, token lifetime). */
export class Clock {
  offsetMs = 0;
  now(): number {
    return Date.now() + this.offsetMs;
  }
  iso(): string {
    return new Date(this.now()).toISOString();
  }
  advance(ms: number): void {
    this.offsetMs += ms;
  }
}
