import { buildRecipe, type Recipe } from '../../api/recipes.js';
import type { Service } from '../../api/service.js';
import type { Context } from '../../context.js';
import { parseChoice, parseId } from '../../util/validate.js';
import { RECIPE_STATES } from '../../contract/recipes.js';
import { bulkForm, idWords, runBulk } from '../shared/bulk.js';
import type { BuildOptions } from './command.js';
import { reportBuildEnd, waitWithSpinner } from './shared/wait.js';
import { waitOf } from '../shared/poll.js';
import { showRecipe } from './shared/view.js';

type Start = (api: Service, ws: string, id: string) => Promise<Recipe>;

/**
 * build and resetup: 202 means the build started, not finished (docs/contract-rules.md, Rules 5). With --wait
 * the recipe is polled to its end; the exit code then tells the outcome (0, 7, 8 or 9).
 */
export async function startBuild(
  ctx: Context,
  opts: BuildOptions,
  verb: 'build' | 'resetup',
  call: Start,
): Promise<void> {
  const ids = idWords(opts.args[0], 'recipe id');
  if (bulkForm(ctx, opts, ids.length === 1, opts.state !== undefined || opts.template !== undefined))
    return runBulk(ctx, opts, {
      action: verb === 'build' ? 'recipes.build' : 'recipes.resetup',
      ids,
      selection: {
        state: opts.state === undefined ? undefined : parseChoice(opts.state, RECIPE_STATES, '--state'),
        templateId: opts.template === undefined ? undefined : parseId(opts.template, '--template'),
      },
      refused: [opts.wait && '--wait', opts.failOnDegraded && '--fail-on-degraded'],
      refusedWhy: `follow builds in bulk with \`${ctx.hint('recipes', 'status', '--watch')}\``,
    });
  const recipeId = parseId(opts.args[0][0], 'recipe id');
  const ws = ctx.requireWorkspace();
  const wait = waitOf(ctx, opts, { flag: '--wait', given: !!opts.wait })?.polling;
  const api = await ctx.api();
  const started = await call(api, ws, recipeId);
  if (!wait) {
    if (ctx.output.machine) ctx.output.json(started);
    else {
      ctx.output.success(
        `${verb === 'build' ? 'Build' : 'Resetup'} of recipe ${recipeId} started; follow it with \`${ctx.hint('recipes', 'poll', recipeId)}\``,
      );
      showRecipe(ctx.output, started);
    }
    return;
  }
  const recipe = await waitWithSpinner(ctx, api, ws, recipeId, wait);
  await reportBuildEnd(ctx, recipe, { failOnDegraded: !!opts.failOnDegraded, api, ws });
}

export function runBuild(opts: BuildOptions, ctx: Context): Promise<void> {
  return startBuild(ctx, opts, 'build', buildRecipe);
}
