import { listExtracts, type Extract } from '../../api/extracts.js';
import type { Context } from '../../context.js';
import { parseIdList } from '../../util/validate.js';
import { parseNames } from '../shared/names.js';
import { limitOf, parseName } from '../shared/options.js';
import type { ListOptions } from './command.js';

const columns = [
  { header: 'ID', value: (e: Extract) => e.id },
  { header: 'TITLE', value: (e: Extract) => e.title },
  { header: 'DATA SOURCE', value: (e: Extract) => e.datasource_name },
  { header: 'ACCOUNT', value: (e: Extract) => e.account_embedded_id ?? e.account_entity_id },
  { header: 'TABLE', value: (e: Extract) => e.data_table_id },
  { header: 'WIDE', value: (e: Extract) => e.template?.is_wide_template },
  // status and pause reason are open sets: shown as the service sends them
  {
    header: 'STATUS',
    value: (e: Extract) => (e.is_paused ? `paused (${e.pause_reason ?? 'unknown'})` : e.status),
    raw: (e: Extract) => e.status,
  },
];

export async function runList(opts: ListOptions, ctx: Context): Promise<void> {
  const filters = {
    connectionIds: opts.connection === undefined ? undefined : parseIdList(opts.connection, '--connection'),
    datasourceNames:
      opts.dataSource === undefined
        ? undefined
        : parseNames(opts.dataSource, '--data-source').map((n) => parseName(n, '--data-source')),
    dataTableIds: opts.table === undefined ? undefined : parseIdList(opts.table, '--table'),
  };
  const limit = limitOf(opts.limit);
  const ws = ctx.requireWorkspace();
  const api = await ctx.api();
  await ctx.output.list(listExtracts(api, ws, filters, { limit }), columns, {
    empty: `No extracts in workspace ${ws}.`,
  });
}
