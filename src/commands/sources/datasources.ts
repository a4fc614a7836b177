import type { Context } from '../../context.js';
import { listDataSources, type DataSource } from '../../api/sources.js';
import type { Opts } from '../shared/app.js';
import { limitOf } from '../shared/options.js';

export async function runList(ctx: Context, _a: unknown[], opts: Opts): Promise<number> {
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
  return 0;
}
