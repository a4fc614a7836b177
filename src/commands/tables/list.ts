import { listTables, type DataTable } from '../../api/tables.js';
import type { Context } from '../../context.js';
import { limitOf } from '../shared/options.js';
import type { ListOptions } from './command.js';

export async function runList(opts: ListOptions, ctx: Context): Promise<void> {
  const limit = limitOf(opts.limit);
  const ws = ctx.requireWorkspace();
  const api = await ctx.api();
  await ctx.output.list(
    listTables(api, ws, { limit }),
    [
      { header: 'ID', value: (t: DataTable) => t.id },
      { header: 'TITLE', value: (t: DataTable) => t.title },
      { header: 'SQL NAME', value: (t: DataTable) => t.sql_name },
      { header: 'DATA SOURCE', value: (t: DataTable) => t.datasource_name },
      { header: 'ROWS', value: (t: DataTable) => t.rows_count },
    ],
    { empty: `No data tables in workspace ${ws}.` },
  );
}
