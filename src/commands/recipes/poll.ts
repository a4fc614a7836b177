import type { Context } from '../../context.js';
import { parseId } from '../../util/validate.js';
import type { Opts } from '../shared/app.js';
import { reportBuildEnd, waitOptionsOf, waitWithSpinner } from './wait.js';

/** Waits for a running build to end; exit 0 ready, 7 failed, 8 still building at --wait-timeout, 9 degraded with --fail-on-degraded. */
export async function runPoll(ctx: Context, [id]: unknown[], opts: Opts): Promise<number> {
  const recipeId = parseId(id as string, 'recipe id');
  const ws = ctx.requireWorkspace();
  const wait = waitOptionsOf(ctx, opts);
  const api = await ctx.api();
  const recipe = await waitWithSpinner(ctx, api, ws, recipeId, wait);
  return reportBuildEnd(ctx, recipe, { failOnDegraded: !!opts.failOnDegraded, api, ws });
}
