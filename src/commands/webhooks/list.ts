import { listWebhookEndpoints } from '../../api/webhooks.js';
import { limitOf } from '../shared/options.js';
import { columns } from './shared/endpoints.js';
import type { Context } from '../../context.js';
import type { ListOptions } from './command.js';

export async function runList(opts: ListOptions, ctx: Context): Promise<void> {
  const ws = ctx.requireWorkspace();
  const limit = limitOf(opts.limit);
  const api = await ctx.api();
  await ctx.output.list(listWebhookEndpoints(api, ws, { limit }), columns, {
    empty: 'No webhook endpoints in this workspace.',
  });
}
