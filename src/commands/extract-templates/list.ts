import { listTemplates, type ExtractTemplate } from '../../api/extract-templates.js';
import type { Context } from '../../context.js';
import type { Column } from '../../output/output.js';
import { listOfDataSource } from '../shared/datasource-list.js';
import type { ListOptions } from './command.js';

const columns: Array<Column<ExtractTemplate>> = [
  { header: 'ID', value: (t) => t.id },
  { header: 'TITLE', value: (t) => t.title },
  { header: 'WIDE', value: (t) => t.is_wide_template },
  { header: 'GLOBAL', value: (t) => t.is_global },
  { header: 'SQL NAME', value: (t) => t.sql_name },
];

export async function runList(opts: ListOptions, ctx: Context): Promise<void> {
  await listOfDataSource(ctx, opts, listTemplates, columns, (ds) => `No ${ds} extract templates.`);
}
