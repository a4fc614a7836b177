import { getRecipe } from '../../api/recipes.js';
import type { Context } from '../../context.js';
import { parseId } from '../../util/validate.js';
import type { GetOptions } from './command.js';
import { showRecipe } from './shared/view.js';
import { explainOf } from './shared/wait.js';

export async function runGet(opts: GetOptions, ctx: Context): Promise<void> {
  const recipeId = parseId(opts.args[0], 'recipe id');
  const ws = ctx.requireWorkspace();
  const api = await ctx.api();
  const recipe = await getRecipe(api, ws, recipeId);
  if (ctx.output.machine) ctx.output.json(recipe);
  else showRecipe(ctx.output, recipe, await explainOf(api, ws, recipe));
}
