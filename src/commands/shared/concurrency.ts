import { FLEET_CONCURRENCY_CAP } from '../../config/defaults.js';
import type { Context } from '../../context.js';

/** `auto`: one per workspace, at most FLEET_CONCURRENCY_CAP, at least 1. */
export function fleetSized(workspaces: number): number {
  return Math.max(1, Math.min(workspaces, FLEET_CONCURRENCY_CAP));
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
 * per workspace, at most FLEET_CONCURRENCY_CAP. The answer is a function of the fleet's size,
 * known only once the workspaces are listed: `const concurrency = fleetConcurrency(ctx,
 * opts.concurrency); … concurrency(ids.length)`.
 */
export function fleetConcurrency(ctx: Context, flag: string | undefined): (workspaces: number) => number {
  const chosen = chosenConcurrency(ctx, flag);
  return chosen === undefined ? fleetSized : () => chosen;
}
