import {
  getDestinationConnection,
  putDestinationConnection,
  renameDestinationConnection,
  type DestinationConnection,
} from '../../api/destinations.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { parseId } from '../../util/validate.js';
import { checkTitle, parseName } from '../shared/options.js';
import type { ConnectionsUpdateOptions } from './command.js';
import { checkNames, checkS3, paramsFrom } from './shared/params.js';
import { showConnection } from './shared/show.js';
import { checkFailure } from './shared/check.js';

/**
 * Parameters go by PUT, which merges them into the current ones and re-checks the connection;
 * a title alone goes by PATCH. The current parameters are read first so that the S3 rules are
 * checked on the result before anything is sent.
 */
export async function runConnectionsUpdate(opts: ConnectionsUpdateOptions, ctx: Context): Promise<void> {
  const destination = parseName(opts.destination, '--destination');
  const connectionId = parseId(opts.args[0], 'destination connection id');
  const { params, title: fileTitle } = await paramsFrom(ctx, destination, opts);
  const titleText = opts.title ?? fileTitle;
  const title = titleText === undefined ? undefined : checkTitle(titleText, '--title');
  checkNames(destination, params);
  const hasParams = Object.keys(params).length > 0;
  if (!hasParams && title === undefined)
    throw new UsageError('nothing to update: pass --title, parameter flags, --param, --file or --secret-stdin');
  const ws = ctx.requireWorkspace();
  const api = await ctx.api();
  let c: DestinationConnection;
  if (hasParams) {
    if (destination === 's3') {
      const current = await getDestinationConnection(api, ws, destination, connectionId);
      checkS3(current.connection_params ?? {}, params, false);
    }
    c = await putDestinationConnection(api, ws, destination, connectionId, params, title);
  } else {
    c = await renameDestinationConnection(api, ws, destination, connectionId, title!);
  }
  const failed = hasParams
    ? checkFailure(ctx, destination, c, `updated ${destination} connection ${connectionId}`)
    : undefined;
  if (!ctx.output.machine && !failed)
    ctx.output.success(
      `Updated ${destination} connection ${connectionId}${hasParams ? ` and re-checked it: status ${String(c.status)}` : ''}`,
    );
  await showConnection(ctx, destination, c);
  if (failed) throw failed;
}
