import { listWorkspaces } from '../../api/workspaces.js';
import type { Context } from '../../context.js';
import { limitOf } from '../shared/options.js';
import type { ListOptions } from './command.js';
import { workspaceColumns } from './columns.js';

export async function runList(opts: ListOptions, ctx: Context): Promise<void> {
  const limit = limitOf(opts.limit);
  const api = await ctx.api();
  await ctx.output.list(listWorkspaces(api, { limit }), workspaceColumns, { empty: 'No workspaces.' });
}
