import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { confirmOrRequireYes } from '../shared/confirm.js';
import { didYouMean } from '../../util/did-you-mean.js';
import { idText } from '../../util/json.js';
import { parseId, parseUrl } from '../../util/validate.js';
import {
  SILENT_EVENT_TYPES, createWebhookEndpoint, deleteWebhookEndpoint, getWebhookEndpoint, listWebhookEndpoints, listWebhookEventTypes,
  rotateWebhookSecret, updateWebhookEndpoint, verifyWebhookEndpoint, type WebhookEndpoint,
} from '../../api/webhooks.js';
import type { Service } from '../../api/service.js';
import type { Column } from '../../output/output.js';
import type { Opts } from '../shared/app.js';
import { limitOf } from '../shared/options.js';
import { collect } from '../../util/collect.js';

const columns: Array<Column<WebhookEndpoint>> = [
  { header: 'ID', value: (e) => e.id },
  { header: 'STATUS', value: (e) => e.status, style: (t, _e, c) => (t === 'active' ? c.green(t) : t === 'unverified' ? c.yellow(t) : t) },
  { header: 'URL', value: (e) => e.url },
  { header: 'EVENTS', value: (e) => (e.event_types ?? []).join(',') },
];

/** `a,b` → the event names, each a plain snake_case word; duplicates dropped. */
export function parseEventList(value: string, flag: string): string[] {
  const names = String(value).split(',').map((s) => s.trim()).filter(Boolean);
  if (names.length === 0) throw new UsageError(`${flag} needs at least one event type, e.g. ${flag} workspace_created,load_completed`);
  const malformed = names.filter((n) => !/^[a-z0-9_]+$/.test(n));
  if (malformed.length > 0) throw new UsageError(`${flag}: ${malformed.map((n) => `"${n}"`).join(', ')} is not an event type name (snake_case, e.g. load_completed)`);
  return [...new Set(names)];
}

/**
 * Event names are checked against the service's own list before anything is written, so a
 * typo is refused with exit 2 and a suggestion instead of a 400 after the fact.
 */
async function checkEventNames(ctx: Context, api: Service, ws: string, names: string[]): Promise<void> {
  const known = (await collect(listWebhookEventTypes(api, ws))).map((t) => t.event_name);
  const unknown = names.filter((n) => !known.includes(n));
  if (unknown.length > 0) {
    const described = unknown.map((n) => {
      const near = didYouMean(n, known);
      return near ? `"${n}" (${near})` : `"${n}"`;
    });
    throw new UsageError(`--events: unknown event type${unknown.length > 1 ? 's' : ''} ${described.join(', ')}; \`edp webhooks event-types\` lists them`);
  }
  for (const n of names.filter((x) => SILENT_EVENT_TYPES.has(x))) {
    ctx.output.warn(`${n} is a valid subscription that produced no events in the service's production sample; do not wait on it`);
  }
}


async function showWithSecret(ctx: Context, endpoint: WebhookEndpoint, headline: string): Promise<void> {
  if (ctx.output.machine) return ctx.output.json(endpoint);
  ctx.output.success(headline);
  await ctx.output.object(endpoint);
  ctx.output.info(
    `\nKeep the secret now: the service shows it only in this answer. Next:\n` +
      `  EDP_WEBHOOK_SECRET=… edp webhooks listen   (at ${endpoint.url ?? 'the endpoint URL'})\n` +
      `  edp webhooks verify ${idText(endpoint.id)}`,
  );
}

export async function runList(ctx: Context, _a: unknown[], opts: Opts): Promise<number> {
  const ws = ctx.requireWorkspace();
  const limit = limitOf(opts.limit);
  const api = await ctx.api();
  await ctx.output.list(listWebhookEndpoints(api, ws, { limit }), columns, { empty: 'No webhook endpoints in this workspace.' });
  return 0;
}

export async function runGet(ctx: Context, [id]: unknown[]): Promise<number> {
  const ws = ctx.requireWorkspace();
  const endpointId = parseId(id as string, 'endpoint id');
  const api = await ctx.api();
  await ctx.output.object(await getWebhookEndpoint(api, ws, endpointId));
  return 0;
}

export async function runCreate(ctx: Context, _a: unknown[], opts: Opts): Promise<number> {
  const ws = ctx.requireWorkspace();
  const url = parseUrl(opts.url, '--url');
  const events = parseEventList(opts.events, '--events');
  const api = await ctx.api();
  await checkEventNames(ctx, api, ws, events);
  const endpoint = await createWebhookEndpoint(api, ws, { url, event_types: events });
  await showWithSecret(ctx, endpoint, `Created webhook endpoint ${idText(endpoint.id)} (${endpoint.status ?? 'status unknown'})`);
  return 0;
}

export async function runUpdate(ctx: Context, [id]: unknown[], opts: Opts): Promise<number> {
  const ws = ctx.requireWorkspace();
  const endpointId = parseId(id as string, 'endpoint id');
  const events = parseEventList(opts.events, '--events');
  const api = await ctx.api();
  await checkEventNames(ctx, api, ws, events);
  const endpoint = await updateWebhookEndpoint(api, ws, endpointId, events);
  if (ctx.output.machine) ctx.output.json(endpoint);
  else ctx.output.success(`Endpoint ${endpointId} now receives ${(endpoint.event_types ?? events).join(', ')}`);
  return 0;
}

export async function runDelete(ctx: Context, [id]: unknown[], opts: Opts): Promise<number> {
  const ws = ctx.requireWorkspace();
  const endpointId = parseId(id as string, 'endpoint id');
  await confirmOrRequireYes(ctx, opts.yes, `deleting endpoint ${endpointId}`, `Delete webhook endpoint ${endpointId}?`);
  const api = await ctx.api();
  await deleteWebhookEndpoint(api, ws, endpointId);
  if (ctx.output.machine) ctx.output.json({ id: endpointId, deleted: true });
  else ctx.output.success(`Deleted webhook endpoint ${endpointId}`);
  return 0;
}

export async function runVerify(ctx: Context, [id]: unknown[]): Promise<number> {
  const ws = ctx.requireWorkspace();
  const endpointId = parseId(id as string, 'endpoint id');
  const api = await ctx.api();
  const endpoint = await verifyWebhookEndpoint(api, ws, endpointId);
  if (ctx.output.machine) ctx.output.json(endpoint);
  else if (endpoint.status === 'active') ctx.output.success(`Endpoint ${endpointId} is verified and active`);
  else ctx.output.warn(`Endpoint ${endpointId} is ${endpoint.status ?? 'in an unknown status'} after verification`);
  return 0;
}

export async function runRotateSecret(ctx: Context, [id]: unknown[], opts: Opts): Promise<number> {
  const ws = ctx.requireWorkspace();
  const endpointId = parseId(id as string, 'endpoint id');
  // The old secret stops working at once and the endpoint needs verifying again (contract, Events rule 7).
  await confirmOrRequireYes(
    ctx,
    opts.yes,
    `rotating the secret of endpoint ${endpointId}`,
    `Rotate the secret of endpoint ${endpointId}? The old secret stops working at once and the endpoint must be verified again.`,
  );
  const api = await ctx.api();
  const endpoint = await rotateWebhookSecret(api, ws, endpointId);
  await showWithSecret(ctx, endpoint, `New secret for endpoint ${endpointId}; it is ${endpoint.status ?? 'in an unknown status'} until verified again`);
  return 0;
}

export async function runEventTypes(ctx: Context, _a: unknown[], opts: Opts): Promise<number> {
  const ws = ctx.requireWorkspace();
  const limit = limitOf(opts.limit);
  const api = await ctx.api();
  await ctx.output.list(
    listWebhookEventTypes(api, ws, { limit }),
    [
      { header: 'EVENT', value: (t) => t.event_name },
      { header: 'NOTE', value: (t) => (SILENT_EVENT_TYPES.has(t.event_name) ? 'silent: no events in production sample' : '') },
    ],
    { empty: 'No event types.' },
  );
  return 0;
}
