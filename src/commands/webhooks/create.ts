import { createWebhookEndpoint } from '../../api/webhooks.js';
import { idText } from '../../util/json.js';
import { parseUrl } from '../../util/validate.js';
import { checkEventNames, parseEventList, showWithSecret } from './shared/endpoints.js';
import type { Context } from '../../context.js';
import type { CreateOptions } from './command.js';

export async function runCreate(opts: CreateOptions, ctx: Context): Promise<void> {
  const ws = ctx.requireWorkspace();
  const url = parseUrl(opts.url, '--url');
  const events = parseEventList(opts.events, '--events');
  const api = await ctx.api();
  await checkEventNames(ctx, api, ws, events);
  const endpoint = await createWebhookEndpoint(api, ws, { url, event_types: events });
  await showWithSecret(
    ctx,
    endpoint,
    `Created webhook endpoint ${idText(endpoint.id)} (${endpoint.status ?? 'status unknown'})`,
  );
}
