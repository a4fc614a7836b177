import type { Context } from '../../context.js';
import { listDataSources, type DataSource } from '../../api/sources.js';
import { UsageError } from '../../errors.js';
import type { Opts } from '../app.js';
import { limitOf } from '../options.js';

/** A data source name as paths use it (`google_ads`): not blank, one path segment. */
export function parseDataSource(value: unknown, flag = '--data-source'): string {
  const v = String(value ?? '').trim();
  if (v === '' || /[\s/]/.test(v)) throw new UsageError(`${flag} must be a data source name such as google_ads (see \`edp datasources list\`), got "${String(value ?? '')}"`);
  return v;
}

export async function runList(ctx: Context, _a: unknown[], opts: Opts): Promise<number> {
  const limit = limitOf(opts);
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
