import { createDestinationConnection } from '../../api/destinations.js';
import type { Context } from '../../context.js';
import { idText } from '../../util/json.js';
import { checkTitle, parseName } from '../shared/options.js';
import type { ConnectionsCreateOptions } from './command.js';
import { checkNames, checkS3, paramsFrom } from './shared/params.js';
import { showConnection } from './shared/show.js';
import { checkFailure } from './shared/check.js';

export async function runConnectionsCreate(opts: ConnectionsCreateOptions, ctx: Context): Promise<void> {
  const destination = parseName(opts.destination, '--destination');
  const { params, title: fileTitle } = await paramsFrom(ctx, destination, opts);
  const title = checkTitle(opts.title ?? fileTitle ?? '', '--title');
  checkNames(destination, params);
  if (destination === 's3') checkS3({}, params, true);
  const ws = ctx.requireWorkspace();
  const api = await ctx.api();
  const c = await createDestinationConnection(api, ws, destination, title, params);
  const failed = checkFailure(ctx, destination, c, `created ${destination} connection ${idText(c.id)}`);
  if (!ctx.output.machine && !failed)
    ctx.output.success(`Created ${destination} connection ${idText(c.id)} (status ${String(c.status)})`);
  await showConnection(ctx, destination, c);
  if (failed) throw failed;
}
