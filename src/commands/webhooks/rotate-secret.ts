import { rotateWebhookSecret } from '../../api/webhooks.js';
import { SecretsFileWriter } from '../../fleet/secrets-file.js';
import { parseId } from '../../util/validate.js';
import { confirmOrRequireYes } from '../shared/confirm.js';
import { showWithSecret } from './shared/endpoints.js';
import { requireSecretReader } from './shared/secret-not-shown.js';
import type { Context } from '../../context.js';
import type { RotateSecretOptions } from './command.js';

export async function runRotateSecret(opts: RotateSecretOptions, ctx: Context): Promise<void> {
  const ws = ctx.requireWorkspace();
  const endpointId = parseId(opts.args[0], 'endpoint id');
  // Before the question: the old secret is gone once the new one is issued.
  requireSecretReader(ctx, opts.secretsFile, 'the service shows the new secret only once');
  const secrets = opts.secretsFile === undefined ? undefined : new SecretsFileWriter(opts.secretsFile);
  secrets?.check();
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
    secrets,
  );
}
