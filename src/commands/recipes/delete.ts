import { deleteRecipe } from '../../api/recipes.js';
import type { Context } from '../../context.js';
import { jsonInteger } from '../../util/json.js';
import { parseId } from '../../util/validate.js';
import { confirmOrRequireYes } from '../shared/confirm.js';
import type { DeleteOptions } from './command.js';

/** Hard delete (docs/contract-rules.md, Rules 4): asks on a terminal, otherwise needs --yes. */
export async function runDelete(opts: DeleteOptions, ctx: Context): Promise<void> {
  const recipeId = parseId(opts.args[0], 'recipe id');
  const ws = ctx.requireWorkspace();
  await confirmOrRequireYes(
    ctx,
    opts.yes,
    `deleting recipe ${recipeId}`,
    `Delete recipe ${recipeId}, its output table and the intermediate recipes it is built on?`,
  );
  const api = await ctx.api();
  await deleteRecipe(api, ws, recipeId);
  if (ctx.output.machine) ctx.output.json({ recipe_id: jsonInteger(recipeId), deleted: true });
  else ctx.output.success(`Deleted recipe ${recipeId} (extractions it started keep running)`);
}
