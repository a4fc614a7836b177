import { listConnections, type Connection } from '../../api/connections.js';
import type { Context } from '../../context.js';
import type { Column } from '../../output/output.js';
import { listOfDataSource } from '../shared/datasource-list.js';
import type { ListOptions } from './command.js';

const columns: Array<Column<Connection>> = [
  { header: 'ID', value: (c) => c.id },
  { header: 'TITLE', value: (c) => c.title },
  { header: 'ACCOUNTS', value: (c) => c.accounts_number },
  { header: 'ENABLED FOR EXTRACTION', value: (c) => c.enabled_for_extraction_accounts_number },
];

export async function runList(opts: ListOptions, ctx: Context): Promise<void> {
  await listOfDataSource(ctx, opts, listConnections, columns, (ds, ws) => `No ${ds} connections in workspace ${ws}.`);
}
