import { rotateWebhookSecret } from '../../api/webhooks.js';
import { parseId } from '../../util/validate.js';
import { confirmOrRequireYes } from '../shared/confirm.js';
import { showWithSecret } from './shared/endpoints.js';
import type { Context } from '../../context.js';
import type { RotateSecretOptions } from './command.js';

export async function runRotateSecret(opts: RotateSecretOptions, ctx: Context): Promise<void> {
  const ws = ctx.requireWorkspace();
  const endpointId = parseId(opts.args[0], 'endpoint id');
  // The old secret stops working at once and the endpoint needs verifying again (docs/contract-rules.md,
  // Events rule 7).
  await confirmOrRequireYes(
    ctx,
    opts.yes,
    `rotating the secret of endpoint ${endpointId}`,
    `Rotate the secret of endpoint ${endpointId}? The old secret stops working at once and the endpoint must be verified again.`,
  );
  const api = await ctx.api();
  const endpoint = await rotateWebhookSecret(api, ws, endpointId);
  await showWithSecret(
    ctx,
    endpoint,
    `New secret for endpoint ${endpointId}; it is ${endpoint.status ?? 'in an unknown status'} until verified again`,
  );
}
