import { listLinks } from '../../api/links.js';
import type { Context } from '../../context.js';
import { limitOf, parseName } from '../shared/options.js';
import type { ListOptions } from './command.js';
import { statusColumn } from './shared/status.js';

export async function runList(opts: ListOptions, ctx: Context): Promise<void> {
  const datasource = parseName(opts.dataSource, '--data-source');
  const limit = limitOf(opts.limit);
  const ws = ctx.requireWorkspace();
  const api = await ctx.api();
  await ctx.output.list(
    listLinks(api, ws, datasource, { limit }),
    [
      { header: 'ID', value: (l) => l.id },
      { header: 'EMAIL', value: (l) => l.email },
      statusColumn,
      { header: 'CREATED', value: (l) => l.created_at },
      { header: 'EXPIRES', value: (l) => l.expires_at },
      { header: 'REQUESTED BY', value: (l) => l.requested_by },
    ],
    { empty: `No ${datasource} links in workspace ${ws}.` },
  );
}
