import { listConnections, type Connection } from '../../api/connections.js';
import type { Context } from '../../context.js';
import { suggestingDataSource } from '../shared/datasource-names.js';
import { limitOf, parseName } from '../shared/options.js';
import type { ListOptions } from './command.js';

export async function runList(opts: ListOptions, ctx: Context): Promise<void> {
  const datasource = parseName(opts.dataSource, '--data-source');
  const limit = limitOf(opts.limit);
  const ws = ctx.requireWorkspace();
  const api = await ctx.api();
  await suggestingDataSource(api, ws, datasource, () =>
    ctx.output.list(
      listConnections(api, ws, datasource, { limit }),
      [
        { header: 'ID', value: (c: Connection) => c.id },
        { header: 'TITLE', value: (c: Connection) => c.title },
        { header: 'ACCOUNTS', value: (c: Connection) => c.accounts_number },
        { header: 'ENABLED FOR EXTRACTION', value: (c: Connection) => c.enabled_for_extraction_accounts_number },
      ],
      { empty: `No ${datasource} connections in workspace ${ws}.` },
    ),
  );
}
