import type { Context } from '../../context.js';
import { parseId } from '../../util/validate.js';
import type { PollOptions } from './command.js';
import { reportBuildEnd, waitWithSpinner } from './shared/wait.js';
import { waitPolling } from '../shared/poll.js';

/** Waits for a running build to end; exit 0 ready, 7 failed, 8 still building at --wait-timeout, 9 degraded with --fail-on-degraded. */
export async function runPoll(opts: PollOptions, ctx: Context): Promise<void> {
  const recipeId = parseId(opts.args[0], 'recipe id');
  const ws = ctx.requireWorkspace();
  const wait = waitPolling(ctx, opts);
  const api = await ctx.api();
  const recipe = await waitWithSpinner(ctx, api, ws, recipeId, wait);
  await reportBuildEnd(ctx, recipe, { failOnDegraded: !!opts.failOnDegraded, api, ws });
}
