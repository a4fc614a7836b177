import { verifyWebhookEndpoint } from '../../api/webhooks.js';
import { parseId } from '../../util/validate.js';
import type { Context } from '../../context.js';
import type { VerifyOptions } from './command.js';

export async function runVerify(opts: VerifyOptions, ctx: Context): Promise<void> {
  const ws = ctx.requireWorkspace();
  const endpointId = parseId(opts.args[0], 'endpoint id');
  const api = await ctx.api();
  const endpoint = await verifyWebhookEndpoint(api, ws, endpointId);
  if (ctx.output.machine) ctx.output.json(endpoint);
  else if (endpoint.status === 'active') ctx.output.success(`Endpoint ${endpointId} is verified and active`);
  else ctx.output.warn(`Endpoint ${endpointId} is ${endpoint.status ?? 'in an unknown status'} after verification`);
}
