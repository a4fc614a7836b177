import { getRecipe } from '../../api/recipes.js';
import type { Context } from '../../context.js';
import { parseId } from '../../util/validate.js';
import { showRecipe } from './view.js';
import { explainOf } from './wait.js';

export async function runGet(ctx: Context, [id]: unknown[]): Promise<number> {
  const recipeId = parseId(id as string, 'recipe id');
  const ws = ctx.requireWorkspace();
  const api = await ctx.api();
  const recipe = await getRecipe(api, ws, recipeId);
  if (ctx.output.machine) ctx.output.json(recipe);
  else showRecipe(ctx.output, recipe, await explainOf(api, ws, recipe));
  return 0;
}
