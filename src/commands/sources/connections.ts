import type { Context } from '../../context.js';
import { confirmOrRequireYes } from '../shared/confirm.js';
import { deleteConnection, listConnections, type Connection } from '../../api/sources.js';
import { jsonInteger } from '../../util/json.js';
import { parseId } from '../../util/validate.js';
import type { Opts } from '../shared/app.js';
import { limitOf, parseName } from '../shared/options.js';
import { suggestingDataSource } from './datasource-names.js';

export async function runList(ctx: Context, _a: unknown[], opts: Opts): Promise<number> {
  const datasource = parseName(opts.dataSource, '--data-source');
  const limit = limitOf(opts.limit);
  const ws = ctx.requireWorkspace();
  const api = await ctx.api();
  await suggestingDataSource(api, ws, datasource, () => ctx.output.list(
    listConnections(api, ws, datasource, { limit }),
    [
      { header: 'ID', value: (c: Connection) => c.id },
      { header: 'TITLE', value: (c: Connection) => c.title },
      { header: 'ACCOUNTS', value: (c: Connection) => c.accounts_number },
      { header: 'ENABLED FOR EXTRACTION', value: (c: Connection) => c.enabled_for_extraction_accounts_number },
    ],
    { empty: `No ${datasource} connections in workspace ${ws}.` },
  ));
  return 0;
}


export async function runDelete(ctx: Context, [id]: unknown[], opts: Opts): Promise<number> {
  const connectionId = parseId(id as string, 'connection id');
  const datasource = opts.dataSource === undefined ? undefined : parseName(opts.dataSource, '--data-source');
  const ws = ctx.requireWorkspace();
  await confirmOrRequireYes(
    ctx,
    opts.yes,
    `deleting connection ${connectionId} (its accounts become inactive and its extractions pause)`,
    `Delete connection ${connectionId} in workspace ${ws}? Its accounts become inactive and its extractions pause.`,
  );
  const api = await ctx.api();
  await (datasource === undefined ? deleteConnection(api, ws, connectionId) : suggestingDataSource(api, ws, datasource, () => deleteConnection(api, ws, connectionId, datasource)));
  if (ctx.output.machine) ctx.output.json({ connection_id: jsonInteger(connectionId), deleted: true });
  else ctx.output.success(`Deleted connection ${connectionId}: its accounts are now inactive and its extractions are paused`);
  return 0;
}
