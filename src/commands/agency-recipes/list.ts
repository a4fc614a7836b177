import { listAgencyRecipes } from '../../api/workspaces.js';
import type { Context } from '../../context.js';
import { limitOf } from '../shared/options.js';
import type { ListOptions } from './command.js';

export async function runList(opts: ListOptions, ctx: Context): Promise<void> {
  const limit = limitOf(opts.limit);
  const api = await ctx.api();
  await ctx.output.list(
    listAgencyRecipes(api, { limit }),
    [
      { header: 'ID', value: (r) => r.id },
      { header: 'TITLE', value: (r) => r.title },
    ],
    { empty: 'No recipes available to the agency.' },
  );
}
