import { listRecipes } from '../../api/recipes.js';
import { RECIPE_STATES } from '../../contract/recipes.js';
import type { Context } from '../../context.js';
import { parseChoice, parseId } from '../../util/validate.js';
import { limitOf } from '../shared/options.js';
import type { ListOptions } from './command.js';
import { recipeColumns } from './shared/view.js';

export async function runList(opts: ListOptions, ctx: Context): Promise<void> {
  const ws = ctx.requireWorkspace();
  const limit = limitOf(opts.limit);
  const state = opts.state === undefined ? undefined : parseChoice(opts.state, RECIPE_STATES, '--state');
  const templateId = opts.template === undefined ? undefined : parseId(opts.template, '--template');
  const api = await ctx.api();
  await ctx.output.list(listRecipes(api, ws, { state, templateId }, { limit }), recipeColumns, {
    // An empty answer to a filter says which filter: the workspace may well have recipes.
    empty:
      state === undefined && templateId === undefined
        ? 'No recipes in this workspace.'
        : `No recipes ${[state === undefined ? '' : `in state ${state}`, templateId === undefined ? '' : `from template ${templateId}`].filter(Boolean).join(' and ')} in this workspace.`,
  });
}
