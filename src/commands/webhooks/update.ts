import { updateWebhookEndpoint } from '../../api/webhooks.js';
import { parseId } from '../../util/validate.js';
import { checkEventNames, parseEventList } from './shared/endpoints.js';
import type { Context } from '../../context.js';
import type { UpdateOptions } from './command.js';

export async function runUpdate(opts: UpdateOptions, ctx: Context): Promise<void> {
  const ws = ctx.requireWorkspace();
  const endpointId = parseId(opts.args[0], 'endpoint id');
  const events = parseEventList(opts.events, '--events');
  const api = await ctx.api();
  await checkEventNames(ctx, api, ws, events);
  const endpoint = await updateWebhookEndpoint(api, ws, endpointId, events);
  if (ctx.output.machine) ctx.output.json(endpoint);
  else ctx.output.success(`Endpoint ${endpointId} now receives ${(endpoint.event_types ?? events).join(', ')}`);
}
