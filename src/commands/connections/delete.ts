import { deleteConnection } from '../../api/connections.js';
import type { Context } from '../../context.js';
import { jsonInteger } from '../../util/json.js';
import { parseId } from '../../util/validate.js';
import { confirmOrRequireYes } from '../shared/confirm.js';
import { suggestingDataSource } from '../shared/datasource-names.js';
import { parseName } from '../shared/options.js';
import type { DeleteOptions } from './command.js';

export async function runDelete(opts: DeleteOptions, ctx: Context): Promise<void> {
  const connectionId = parseId(opts.args[0], 'connection id');
  const datasource = opts.dataSource === undefined ? undefined : parseName(opts.dataSource, '--data-source');
  const ws = ctx.requireWorkspace();
  await confirmOrRequireYes(
    ctx,
    opts.yes,
    `deleting connection ${connectionId} (its accounts become inactive and its extractions pause)`,
    `Delete connection ${connectionId} in workspace ${ws}? Its accounts become inactive and its extractions pause.`,
  );
  const api = await ctx.api();
  await (datasource === undefined
    ? deleteConnection(api, ws, connectionId)
    : suggestingDataSource(api, ws, datasource, () => deleteConnection(api, ws, connectionId, datasource)));
  if (ctx.output.machine) ctx.output.json({ connection_id: jsonInteger(connectionId), deleted: true });
  else
    ctx.output.success(
      `Deleted connection ${connectionId}: its accounts are now inactive and its extractions are paused`,
    );
}
