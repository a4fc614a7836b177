import { getDestinationConnection } from '../../api/destinations.js';
import type { Context } from '../../context.js';
import { parseId } from '../../util/validate.js';
import { parseName } from '../shared/options.js';
import type { ConnectionsGetOptions } from './command.js';
import { showConnection } from './shared/show.js';

export async function runConnectionsGet(opts: ConnectionsGetOptions, ctx: Context): Promise<void> {
  const destination = parseName(opts.destination, '--destination');
  const connectionId = parseId(opts.args[0], 'destination connection id');
  const ws = ctx.requireWorkspace();
  const api = await ctx.api();
  await showConnection(ctx, destination, await getDestinationConnection(api, ws, destination, connectionId));
}
