import { enableRecipe } from '../../api/workspaces.js';
import type { Context } from '../../context.js';
import { parseId } from '../../util/validate.js';
import type { EnableRecipeOptions } from './command.js';

export async function runEnableRecipe(opts: EnableRecipeOptions, ctx: Context): Promise<void> {
  const wsId = parseId(opts.args[0], 'workspace id');
  const recipeId = parseId(opts.args[1], 'recipe id');
  const api = await ctx.api();
  await enableRecipe(api, wsId, recipeId);
  if (ctx.output.machine) ctx.output.json({ workspace_id: wsId, recipe_id: recipeId, enabled: true });
  else ctx.output.success(`Enabled recipe ${recipeId} in workspace ${wsId}`);
}
