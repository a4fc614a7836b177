import { listRoles } from '../../api/roles.js';
import type { Context } from '../../context.js';
import { limitOf } from '../shared/options.js';
import type { ListOptions } from './command.js';
import { roleColumns } from './shared/role.js';

export async function runList(opts: ListOptions, ctx: Context): Promise<void> {
  const limit = limitOf(opts.limit);
  const api = await ctx.api();
  await ctx.output.list(listRoles(api, { limit }), roleColumns, { empty: 'No roles.' });
}
