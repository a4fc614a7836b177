import { recheckDestinationConnection } from '../../api/destinations.js';
import type { Context } from '../../context.js';
import { parseId } from '../../util/validate.js';
import { parseName } from '../shared/options.js';
import type { ConnectionsRecheckOptions } from './command.js';
import { showConnection } from './shared/show.js';
import { checkFailure } from './shared/check.js';

export async function runConnectionsRecheck(opts: ConnectionsRecheckOptions, ctx: Context): Promise<void> {
  const destination = parseName(opts.destination, '--destination');
  const connectionId = parseId(opts.args[0], 'destination connection id');
  const ws = ctx.requireWorkspace();
  const api = await ctx.api();
  const c = await recheckDestinationConnection(api, ws, destination, connectionId);
  const failed = checkFailure(ctx, destination, c, `checked ${destination} connection ${connectionId} again`);
  if (!ctx.output.machine && !failed) {
    if (c.status === 'active') ctx.output.success(`${destination} connection ${connectionId} is active`);
    else
      ctx.output.warn(
        `${destination} connection ${connectionId} is ${String(c.status)}${c.error_text ? `: ${c.error_text}` : ''}`,
      );
  }
  await showConnection(ctx, destination, c);
  if (failed) throw failed;
}
