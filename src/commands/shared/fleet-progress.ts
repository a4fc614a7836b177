import type { Context } from '../../context.js';
import type { Spinner } from '../../output/output.js';
import type { StepReporter } from '../../recipes/deploy.js';
import { stepLabel, stepReporter } from './deploy-steps.js';

/** 45s, 2m05s: how long a step has been running. */
export function elapsedText(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
}

/**
 * A fleet's live line on a terminal: how many deployments are done, and for each one under way
 * its step or build state and how long that has taken, redrawn every second. Lines written
 * meanwhile go above it. Nothing without a terminal or with --quiet (the lines say it all).
 */
export class FleetBoard {
  private readonly current = new Map<string, { text: string; since: number }>();
  private readonly finished = new Set<string>();
  private timer: ReturnType<typeof setInterval> | undefined;

  private constructor(
    private readonly spinner: Spinner | undefined,
    private readonly total: number,
    private readonly noun: string,
    private readonly now: () => number,
  ) {
    if (spinner) {
      this.timer = setInterval(() => this.draw(), 1000);
      this.timer.unref();
    }
  }

  /** `noun` names what is counted: `workspaces`, `recipes`. */
  static async start(ctx: Context, total: number, noun: string): Promise<FleetBoard> {
    const live = !!ctx.io.stderr.isTTY && !ctx.output.flags.quiet;
    const spinner = live ? await ctx.output.spinner(`deploying to ${total} ${noun}`) : undefined;
    return new FleetBoard(spinner, total, noun, () => ctx.now());
  }

  set(key: string, text: string, since: number): void {
    if (this.finished.has(key)) return;
    this.current.set(key, { text, since });
    this.draw();
  }

  /** One deployment ended (once per key, however often it is said). */
  finish(key: string): void {
    if (this.finished.has(key)) return;
    this.finished.add(key);
    this.current.delete(key);
    this.draw();
  }

  private draw(): void {
    if (!this.spinner) return;
    const under = [...this.current].map(([key, b]) => `[${key}] ${b.text} ${elapsedText(this.now() - b.since)}`);
    this.spinner.update(
      `${this.finished.size}/${this.total} ${this.noun} done${under.length > 0 ? `; ${under.join(' · ')}` : ''}`,
    );
  }

  stop(): void {
    clearInterval(this.timer);
    this.spinner?.stop();
  }
}

/**
 * Step progress of one deployment in a fleet: one line per finished step and per build state,
 * prefixed by `prefix` (the workspace, and the recipe where there are several), so that a long
 * build is never silent; on a terminal the board's live line follows it too (the caller
 * tells the board when the deployment has ended: `FleetBoard.finish`).
 */
export function fleetStepReporter(ctx: Context, prefix: string, key: string, board?: FleetBoard): StepReporter {
  const c = ctx.output.err;
  return stepReporter(async (n, text) => {
    const started = ctx.now();
    const since = () => elapsedText(ctx.now() - started);
    const label = (t: string) => stepLabel(n, t);
    const line = (mark: string, t: string) => ctx.output.info(`${c.dim(prefix)} ${mark} ${label(t)}`);
    let last: string | undefined;
    board?.set(key, label(text), started);
    return {
      update: (t) => {
        if (t === last) return;
        last = t;
        board?.set(key, label(t), started);
        line(c.cyan('…'), `${t} (${since()})`);
      },
      succeed: (t) => line(c.green('✓'), t),
      warn: (t) => line(c.yellow('!'), t),
      fail: (t) => line(c.red('✗'), t),
    };
  });
}
