import { unreadSecrets } from './secret-not-shown.js';
import type { SecretsFileWriter } from '../../../fleet/secrets-file.js';
import { keepsWrites } from '../../../output/io.js';
import type { Context } from '../../../context.js';
import { suggest } from '../../../util/suggest.js';
import { UsageError } from '../../../errors.js';
import { didYouMean } from '../../../util/did-you-mean.js';
import { idText } from '../../../util/json.js';
import {
  SILENT_EVENT_TYPES,
  listWebhookEventTypes,
  type EndpointWithSecret,
  type WebhookEndpoint,
} from '../../../api/webhooks.js';
import type { Service } from '../../../api/service.js';
import type { Column } from '../../../output/output.js';
import { collect } from '../../../util/collect.js';

export const columns: Array<Column<WebhookEndpoint>> = [
  { header: 'ID', value: (e) => e.id },
  {
    header: 'STATUS',
    value: (e) => e.status,
    style: (t, _e, c) => (t === 'active' ? c.green(t) : t === 'unverified' ? c.yellow(t) : t),
  },
  { header: 'URL', value: (e) => e.url },
  { header: 'EVENTS', value: (e) => (e.event_types ?? []).join(',') },
];

/** `a,b` → the event names, each a plain snake_case word; duplicates dropped. */
export function parseEventList(value: string, flag: string): string[] {
  const names = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (names.length === 0)
    throw new UsageError(`${flag} needs at least one event type, e.g. ${flag} workspace_created,load_completed`);
  const malformed = names.filter((n) => !/^[a-z0-9_]+$/.test(n));
  if (malformed.length > 0)
    throw new UsageError(
      `${flag}: ${malformed.map((n) => `"${n}"`).join(', ')} is not an event type name (snake_case, e.g. load_completed)`,
    );
  return [...new Set(names)];
}

/**
 * Event names are checked against the service's own list before anything is written, so a
 * typo is refused with exit 2 and a suggestion instead of a 400 after the fact.
 */
export async function checkEventNames(ctx: Context, api: Service, ws: string, names: string[]): Promise<void> {
  const known = (await collect(listWebhookEventTypes(api, ws))).map((t) => t.event_name);
  const unknown = names.filter((n) => !known.includes(n));
  if (unknown.length > 0) {
    const described = unknown.map((n) => {
      const near = didYouMean(n, known);
      return near ? `"${n}" (${near})` : `"${n}"`;
    });
    throw new UsageError(
      `--events: unknown event type${unknown.length > 1 ? 's' : ''} ${described.join(', ')}; \`${suggest(['webhooks', 'event-types'], { workspace: ws })}\` lists them`,
    );
  }
  for (const n of names.filter((x) => SILENT_EVENT_TYPES.has(x))) {
    ctx.output.warn(
      `${n} is a valid subscription that produced no events in the service's production sample; do not wait on it`,
    );
  }
}

/**
 * A new endpoint (or a rotated secret) with its secret, which the service shows only in this
 * answer: written to the secrets file when one is given (the endpoint is then printed without
 * it), else printed. A printed secret that may not have been read (part of the output was lost)
 * fails the command with the way to a new one.
 */
export async function showWithSecret(
  ctx: Context,
  endpoint: EndpointWithSecret,
  headline: string,
  secretsFile: SecretsFileWriter | undefined,
): Promise<void> {
  const workspace = ctx.requireWorkspace();
  const id = idText(endpoint.id);
  const { secret, ...rest } = endpoint;
  let filed = false;
  if (secretsFile && typeof secret === 'string') {
    try {
      await secretsFile.record({ workspace_id: workspace, endpoint_id: id, url: endpoint.url ?? '', secret });
      filed = true;
    } catch (err) {
      // The service will not show it again: printed rather than lost.
      ctx.output.warn(`could not write the secret to ${secretsFile.path} (${(err as Error).message}); it is printed`);
    }
  }
  await printEndpoint(ctx, filed ? rest : endpoint, headline, filed ? secretsFile!.path : undefined);
  const unread = await unreadSecrets(ctx, !filed && typeof secret === 'string' ? [{ id, workspace }] : []);
  if (unread) throw unread;
}

/** The endpoint, with its secret unless `secretsFile` holds it, and the next steps for a person. */
async function printEndpoint(
  ctx: Context,
  endpoint: EndpointWithSecret | Omit<EndpointWithSecret, 'secret'>,
  headline: string,
  secretsFile: string | undefined,
): Promise<void> {
  if (ctx.output.machine) return ctx.output.json(endpoint);
  ctx.output.success(headline);
  await ctx.output.object(endpoint);
  // A receiver on this machine listens on the port of the endpoint's url; elsewhere, the url says where.
  const local = localPort(typeof endpoint.url === 'string' ? endpoint.url : undefined);
  // The receiver needs no workspace: only the port and the secret.
  const listen = local
    ? (more: string[], env?: Record<string, string>) =>
        suggest(['webhooks', 'listen', '--port', local, ...more], { env })
    : undefined;
  const receiver = `  run a receiver at ${endpoint.url ?? 'the endpoint URL'} that checks the secret (${suggest(['webhooks', 'listen'])} on that host)\n`;
  const verify = `  ${ctx.hint('webhooks', 'verify', idText(endpoint.id))}`;
  if (secretsFile !== undefined) {
    ctx.output.info(
      `\nThe secret is in ${secretsFile}. Next:\n` +
        (listen ? `  ${listen(['--secrets-file', secretsFile])}\n` : receiver) +
        verify,
    );
    return;
  }
  // The secret is repeated in the command only where stderr is read as it is written (a terminal,
  // a file): never into a pipe.
  const secret =
    'secret' in endpoint && typeof endpoint.secret === 'string' && keepsWrites(ctx.io.stderr)
      ? endpoint.secret
      : 'SECRET';
  ctx.output.info(
    `\nKeep the secret now: the service shows it only in this answer. Next:\n` +
      (listen ? `  ${listen([], { EDP_WEBHOOK_SECRET: secret })}\n` : receiver) +
      verify,
  );
}

/** The port of a url on this machine (loopback or localhost), where `edp webhooks listen` can answer it. */
function localPort(url: string | undefined): string | undefined {
  if (!url) return undefined;
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return undefined;
  }
  if (!['localhost', '127.0.0.1', '[::1]'].includes(u.hostname)) return undefined;
  return u.port || (u.protocol === 'https:' ? '443' : '80');
}
