import { getWebhookEndpoint } from '../../api/webhooks.js';
import { parseId } from '../../util/validate.js';
import type { Context } from '../../context.js';
import type { GetOptions } from './command.js';

export async function runGet(opts: GetOptions, ctx: Context): Promise<void> {
  const ws = ctx.requireWorkspace();
  const endpointId = parseId(opts.args[0], 'endpoint id');
  const api = await ctx.api();
  await ctx.output.object(await getWebhookEndpoint(api, ws, endpointId));
}
