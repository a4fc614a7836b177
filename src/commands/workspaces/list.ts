import { listWorkspaces, type Workspace } from '../../api/workspaces.js';
import type { Context } from '../../context.js';
import { limitOf } from '../shared/options.js';
import type { ListOptions } from './command.js';

const columns = [
  { header: 'ID', value: (w: Workspace) => w.id },
  { header: 'TITLE', value: (w: Workspace) => w.title },
];

export async function runList(opts: ListOptions, ctx: Context): Promise<void> {
  const limit = limitOf(opts.limit);
  const api = await ctx.api();
  await ctx.output.list(listWorkspaces(api, { limit }), columns, { empty: 'No workspaces.' });
}
