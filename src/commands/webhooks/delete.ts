import { deleteWebhookEndpoint } from '../../api/webhooks.js';
import { parseId } from '../../util/validate.js';
import { confirmOrRequireYes } from '../shared/confirm.js';
import type { Context } from '../../context.js';
import type { DeleteOptions } from './command.js';

export async function runDelete(opts: DeleteOptions, ctx: Context): Promise<void> {
  const ws = ctx.requireWorkspace();
  const endpointId = parseId(opts.args[0], 'endpoint id');
  await confirmOrRequireYes(ctx, opts.yes, `deleting endpoint ${endpointId}`, `Delete webhook endpoint ${endpointId}?`);
  const api = await ctx.api();
  await deleteWebhookEndpoint(api, ws, endpointId);
  if (ctx.output.machine) ctx.output.json({ id: endpointId, deleted: true });
  else ctx.output.success(`Deleted webhook endpoint ${endpointId}`);
}
