import { listLoads, type Load } from '../../api/loads.js';
import type { Context } from '../../context.js';
import { idText } from '../../util/json.js';
import { limitOf } from '../shared/options.js';
import type { ListOptions } from './command.js';
import { lastRunText } from './shared/show.js';

const columns = [
  { header: 'ID', value: (l: Load) => l.id },
  { header: 'TITLE', value: (l: Load) => l.title },
  { header: 'TABLE', value: (l: Load) => l.data_table_id },
  {
    header: 'DESTINATION',
    value: (l: Load) => `${String(l.destination_name ?? '')} ${idText(l.destination_connection_id)}`.trim(),
  },
  { header: 'SCHEDULE', value: (l: Load) => l.schedule },
  { header: 'STATUS', value: (l: Load) => l.status },
  { header: 'LAST RUN', value: lastRunText, raw: (l: Load) => l.last_run },
];

export async function runList(opts: ListOptions, ctx: Context): Promise<void> {
  const limit = limitOf(opts.limit);
  const ws = ctx.requireWorkspace();
  const api = await ctx.api();
  await ctx.output.list(listLoads(api, ws, { limit }), columns, { empty: `No loads in workspace ${ws}.` });
}
