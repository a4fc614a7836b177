import { listDestinationConnections, type DestinationConnection } from '../../api/destinations.js';
import type { Context } from '../../context.js';
import { limitOf, parseName } from '../shared/options.js';
import type { ConnectionsListOptions } from './command.js';

export async function runConnectionsList(opts: ConnectionsListOptions, ctx: Context): Promise<void> {
  const destination = parseName(opts.destination, '--destination');
  const limit = limitOf(opts.limit);
  const ws = ctx.requireWorkspace();
  const api = await ctx.api();
  await ctx.output.list(
    listDestinationConnections(api, ws, destination, { limit }),
    [
      { header: 'ID', value: (c: DestinationConnection) => c.id },
      { header: 'TITLE', value: (c: DestinationConnection) => c.title },
      { header: 'STATUS', value: (c: DestinationConnection) => c.status },
      { header: 'ERROR', value: (c: DestinationConnection) => c.error_text },
    ],
    { empty: `No ${destination} connections in workspace ${ws}.` },
  );
}
