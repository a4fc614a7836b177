import { secretsNotShown } from './secret-not-shown.js';
import type { Context } from '../../../context.js';
import { shellWord } from '../../../util/shell.js';
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
      `--events: unknown event type${unknown.length > 1 ? 's' : ''} ${described.join(', ')}; \`edp webhooks event-types\` lists them`,
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
 * answer: when it cannot be shown (the output was closed), the command fails with the way to a
 * new one.
 */
export async function showWithSecret(ctx: Context, endpoint: EndpointWithSecret, headline: string): Promise<void> {
  const shown = await ctx.output.shown(() => printWithSecret(ctx, endpoint, headline));
  if (!shown && typeof endpoint.secret === 'string')
    throw secretsNotShown(ctx, [{ id: idText(endpoint.id), workspace: ctx.requireWorkspace() }]);
}

async function printWithSecret(ctx: Context, endpoint: EndpointWithSecret, headline: string): Promise<void> {
  if (ctx.output.machine) return ctx.output.json(endpoint);
  ctx.output.success(headline);
  await ctx.output.object(endpoint);
  // A receiver on this machine listens on the port of the endpoint's url; elsewhere, the url says where.
  const local = localPort(endpoint.url);
  // The receiver needs no workspace: only the port and the secret.
  const listen = local ? `edp webhooks listen --port ${local}` : undefined;
  const secret = typeof endpoint.secret === 'string' ? shellWord(endpoint.secret) : '<the secret above>';
  ctx.output.info(
    `\nKeep the secret now: the service shows it only in this answer. Next:\n` +
      (listen
        ? `  EDP_WEBHOOK_SECRET=${secret} ${listen}\n`
        : `  run a receiver at ${endpoint.url ?? 'the endpoint URL'} that checks the secret (edp webhooks listen on that host)\n`) +
      `  ${ctx.hint('webhooks', 'verify', idText(endpoint.id))}`,
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
