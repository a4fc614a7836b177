import { listDataSources, type DataSource } from '../../api/datasources.js';
import type { Context } from '../../context.js';
import { limitOf } from '../shared/options.js';
import type { ListOptions } from './command.js';

export async function runList(opts: ListOptions, ctx: Context): Promise<void> {
  const limit = limitOf(opts.limit);
  const ws = ctx.requireWorkspace();
  const api = await ctx.api();
  await ctx.output.list(
    listDataSources(api, ws, { limit }),
    [
      { header: 'NAME', value: (d: DataSource) => d.name },
      { header: 'TITLE', value: (d: DataSource) => d.title },
      { header: 'CATEGORY', value: (d: DataSource) => d.category },
    ],
    { empty: 'No data sources.' },
  );
}
