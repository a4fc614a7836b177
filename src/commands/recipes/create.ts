import { createRecipe } from '../../api/recipes.js';
import type { Context } from '../../context.js';
import { idText } from '../../util/json.js';
import { parseId } from '../../util/validate.js';
import { checkTitle } from '../shared/options.js';
import type { CreateOptions } from './command.js';
import { showRecipe } from './shared/view.js';

export async function runCreate(opts: CreateOptions, ctx: Context): Promise<void> {
  const templateId = parseId(opts.template, '--template');
  const title = checkTitle(opts.title);
  const ws = ctx.requireWorkspace();
  const api = await ctx.api();
  const recipe = await createRecipe(api, ws, { templateId, title });
  if (ctx.output.machine) ctx.output.json(recipe);
  else {
    ctx.output.success(
      `Created recipe ${idText(recipe.recipe_id)}; configure it next with \`${ctx.hint('recipes', 'configure', idText(recipe.recipe_id))}\``,
    );
    showRecipe(ctx.output, recipe);
  }
}
