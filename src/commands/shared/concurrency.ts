import { FLEET_CONCURRENCY_CAP, FLEET_READ_CONCURRENCY_CAP } from '../../config/defaults.js';
import type { Context } from '../../context.js';

/** What a fleet command does in each workspace: `auto`'s cap follows it (config/defaults.ts). */
export type FleetWork = 'reads' | 'changes';

/** The most workspaces `auto` works on at once for a command that `work`s. */
export const autoCap = (work: FleetWork): number =>
  work === 'reads' ? FLEET_READ_CONCURRENCY_CAP : FLEET_CONCURRENCY_CAP;

/** `auto`: one per workspace, at most the cap of the command's work, at least 1. */
export function fleetSized(workspaces: number, work: FleetWork = 'changes'): number {
  return Math.max(1, Math.min(workspaces, autoCap(work)));
}

/**
 * Workspaces worked on at once as chosen: `--concurrency` (`flag`), EDP_CONCURRENCY, the
 * profile's `concurrency`, each checked; undefined for `auto` (the default), which the fleet's
 * size decides.
 */
export function chosenConcurrency(ctx: Context, flag: string | undefined): number | undefined {
  return ctx.settings.concurrency(flag).value;
}

/**
 * Workspaces worked on at once: --concurrency, EDP_CONCURRENCY or the profile's `concurrency`
 * when one of them gives a number (checked now, before any request); otherwise (`auto`) one
 * per workspace, at most the cap of the command's `work`. The answer is a function of the
 * fleet's size, known only once the workspaces are listed: `const concurrency =
 * fleetConcurrency(ctx, opts.concurrency, 'reads'); … concurrency(ids.length)`.
 */
export function fleetConcurrency(
  ctx: Context,
  flag: string | undefined,
  work: FleetWork,
): (workspaces: number) => number {
  const chosen = chosenConcurrency(ctx, flag);
  return chosen === undefined ? (n) => fleetSized(n, work) : () => chosen;
}
