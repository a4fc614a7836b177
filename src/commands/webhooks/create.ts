import { createWebhookEndpoint } from '../../api/webhooks.js';
import { SecretsFileWriter } from '../../fleet/secrets-file.js';
import { idText } from '../../util/json.js';
import { parseUrl } from '../../util/validate.js';
import { checkEventNames, parseEventList, showWithSecret } from './shared/endpoints.js';
import { requireSecretReader } from './shared/secret-not-shown.js';
import type { Context } from '../../context.js';
import type { CreateOptions } from './command.js';

export async function runCreate(opts: CreateOptions, ctx: Context): Promise<void> {
  const ws = ctx.requireWorkspace();
  const url = parseUrl(opts.url, '--url');
  const events = parseEventList(opts.events, '--events');
  requireSecretReader(ctx, opts.secretsFile, "the service shows the new endpoint's secret only once");
  const secrets = opts.secretsFile === undefined ? undefined : new SecretsFileWriter(opts.secretsFile);
  secrets?.check();
  const api = await ctx.api();
  await checkEventNames(ctx, api, ws, events);
  const endpoint = await createWebhookEndpoint(api, ws, { url, event_types: events });
  await showWithSecret(
    ctx,
    endpoint,
    `Created webhook endpoint ${idText(endpoint.id)} (${endpoint.status ?? 'status unknown'})`,
    secrets,
  );
}
