import type { FastifyInstance } from 'fastify';
import { webhookEndpointCreate, webhookEndpointPatch } from '../../contract/requests.js';
import type { SandboxArea } from '../area.js';
import { SandboxError, badRequest, notFound } from '../errors.js';
import { byId, paginate, parseBody, pathId, queryOf, requireBearer, type ControlBody, type IdParams } from '../http.js';
import type { Store } from '../store.js';
import { closest } from '../../util/did-you-mean.js';
import { EVENT_TYPES, eventTimestamp, sampleEventData, shapeOfEventType } from './webhooks/catalog.js';
import { DEFAULT_RETRY_DELAYS_S, WebhookDispatcher } from './webhooks/delivery.js';
import { deliveriesOf, endpointsOf, type WebhookEndpoint } from './webhooks/model.js';
import { serve } from '../operations.js';
import type { SandboxEvent } from '../types.js';

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `over` laid on `base`: objects merged key by key, anything else replaced; keys only in `over` kept. */
function deepMerge(base: Json, over: Json): Json {
  const out: Json = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const under = out[key];
    out[key] = isObject(under) && isObject(value) ? deepMerge(under, value) : value;
  }
  return out;
}

/** A subscription's event types, each once (the schema refuses unknown ones, each by its position). */
function eventTypesOf(types: string[]): string[] {
  return [...new Set(types)];
}

/** The endpoint as the API shows it; the secret only at creation and on rotation. */
function view(endpoint: WebhookEndpoint, withSecret = false): Record<string, unknown> {
  const { id, url, event_types, status, created_at, updated_at, secret } = endpoint;
  return { id, url, event_types, status, ...(withSecret ? { secret } : {}), created_at, updated_at };
}

function endpointOf(store: Store, endpointId: string, workspaceId: number): WebhookEndpoint {
  const id = pathId(endpointId);
  const endpoint = endpointsOf(store).find((e) => e.id === id && e.workspace_id === workspaceId);
  if (!endpoint) throw notFound('Webhook endpoint not found.');
  return endpoint;
}

/**
 * Webhook endpoints, event types and deliveries (docs/contract-rules.md, Webhook endpoints; Webhook
 * endpoint status; Events). Workspace-scoped: Bearer.
 */
export const webhooksArea: SandboxArea = {
  name: 'webhooks',
  init(store) {
    endpointsOf(store);
    deliveriesOf(store);
  },
  routes(app: FastifyInstance, store: Store) {
    const dispatcher = new WebhookDispatcher(store);
    store.onEvent((event) => dispatcher.handle(event));
    app.addHook('onClose', async () => dispatcher.close());
    const endpoints = () => endpointsOf(store);

    serve(app, 'webhookEventTypes.list', async (request) => {
      requireBearer(store, request);
      return paginate(
        request,
        EVENT_TYPES.map((event_name) => ({ event_name })),
        { mode: 'v3' },
      );
    });

    serve(app, 'webhooks.list', async (request) => {
      const { workspaceId } = requireBearer(store, request);
      const items = endpoints()
        .filter((e) => e.workspace_id === workspaceId)
        .sort(byId);
      return paginate(
        request,
        items.map((e) => view(e)),
        { mode: 'v3' },
      );
    });

    serve(app, 'webhooks.create', { config: { body: webhookEndpointCreate } }, async (request, reply) => {
      const { workspaceId } = requireBearer(store, request);
      const body = parseBody(webhookEndpointCreate, request.body);
      const now = store.clock.iso();
      const endpoint: WebhookEndpoint = {
        id: store.nextId('webhook_endpoint'),
        workspace_id: workspaceId,
        url: body.url,
        event_types: eventTypesOf(body.event_types),
        status: 'unverified',
        secret: store.secret(32),
        created_at: now,
        updated_at: now,
      };
      endpoints().push(endpoint);
      store.changed();
      return reply.code(201).send(view(endpoint, true));
    });

    serve<{ Params: IdParams }>(app, 'webhooks.get', async (request) => {
      const { workspaceId } = requireBearer(store, request);
      return view(endpointOf(store, request.params.id, workspaceId));
    });

    serve<{ Params: IdParams }>(app, 'webhooks.update', { config: { body: webhookEndpointPatch } }, async (request) => {
      const { workspaceId } = requireBearer(store, request);
      const endpoint = endpointOf(store, request.params.id, workspaceId);
      const body = parseBody(webhookEndpointPatch, request.body);
      endpoint.event_types = eventTypesOf(body.event_types);
      endpoint.updated_at = store.clock.iso();
      store.changed();
      return view(endpoint);
    });

    serve<{ Params: IdParams }>(app, 'webhooks.delete', async (request, reply) => {
      const { workspaceId } = requireBearer(store, request);
      const endpoint = endpointOf(store, request.params.id, workspaceId);
      endpoints().splice(endpoints().indexOf(endpoint), 1);
      store.changed();
      return reply.code(204).send();
    });

    // The contract leaves the answer to "see Events". The sandbox answers 200 with the endpoint
    // (now `active`) once the receiver has echoed the challenge, and 400 naming the reason
    // otherwise; a failed attempt changes nothing (an active endpoint stays active).
    serve<{ Params: IdParams }>(app, 'webhooks.verify', async (request) => {
      const { workspaceId } = requireBearer(store, request);
      const endpoint = endpointOf(store, request.params.id, workspaceId);
      const secretAtStart = endpoint.secret;
      const result = await dispatcher.verify(endpoint);
      if (!result.ok) {
        throw badRequest(
          `Verification failed: ${result.reason}. The receiver must answer the GET with status 200 and the X-Service-Challenge value as its body.`,
        );
      }
      // A rotation during the round trip wins: the endpoint stays unverified with the new secret.
      if (endpoint.secret === secretAtStart && endpoints().includes(endpoint)) {
        endpoint.status = 'active';
        endpoint.updated_at = store.clock.iso();
        store.changed();
      }
      return view(endpoint);
    });

    // The old secret is invalid at once and the endpoint is unverified again (docs/contract-rules.md, Events rule 7).
    serve<{ Params: IdParams }>(app, 'webhooks.regenerateSecret', async (request) => {
      const { workspaceId } = requireBearer(store, request);
      const endpoint = endpointOf(store, request.params.id, workspaceId);
      endpoint.secret = store.secret(32);
      endpoint.status = 'unverified';
      endpoint.updated_at = store.clock.iso();
      store.changed();
      return view(endpoint, true);
    });

    // Sandbox-only: the deliveries log, and knobs for the retry schedule and lost answers.
    app.get('/_sandbox/webhook-deliveries', async (request) => {
      const q = queryOf(request);
      return deliveriesOf(store).filter(
        (d) =>
          (q.endpoint_id === undefined || String(d.endpoint_id) === q.endpoint_id) &&
          (q.event_type === undefined || d.event_type === q.event_type),
      );
    });

    // Sandbox-only: one event of a type, with a sample payload of its shape (`data` merged over
    // it), delivered like any other to the workspace's active endpoints subscribed to the type.
    app.post<{ Body: ControlBody }>('/_sandbox/events', async (request, reply) => {
      const body: unknown = request.body ?? {};
      if (!isObject(body)) throw badRequest('the body must be a JSON object {event_type, workspace_id, data?}');
      const type = body.event_type;
      if (typeof type !== 'string' || type === '') throw badRequest('event_type must be an event type name');
      const shape = shapeOfEventType(type);
      if (shape === undefined) {
        const near = closest(type, EVENT_TYPES);
        throw badRequest(
          `Unknown event type ${JSON.stringify(type)}.${near.length ? ` Did you mean ${near.join(', ')}?` : ''} The webhook event types list names them all.`,
          { event_type: type, did_you_mean: near },
        );
      }
      const raw = body.workspace_id;
      const workspaceId =
        typeof raw === 'number' ? raw : typeof raw === 'string' && /^[1-9][0-9]*$/.test(raw) ? Number(raw) : NaN;
      if (!Number.isSafeInteger(workspaceId) || workspaceId < 1)
        throw badRequest('workspace_id must be a workspace id');
      if (!store.workspace(workspaceId)) throw notFound(`The agency has no workspace ${workspaceId}.`);
      if (body.data !== undefined && !isObject(body.data)) throw badRequest('data must be a JSON object');
      const occurredAt = store.clock.now();
      const event: SandboxEvent = {
        id: `evt_${store.secret(8)}`,
        type,
        workspace_id: workspaceId,
        shape,
        data: sampleEventData(type, { workspaceId, timestamp: eventTimestamp(occurredAt) })!,
        occurred_at: occurredAt,
      };
      store.state.events.push(event);
      if (store.state.events.length > 5000) store.state.events.splice(0, store.state.events.length - 5000);
      const data = deepMerge(dispatcher.dataOf(event), body.data ?? {});
      const sentTo = dispatcher.trigger(event, data);
      store.changed();
      return reply.code(201).send({
        event: { ...dispatcher.eventBody(event, data), workspace_id: workspaceId },
        endpoints: sentTo.map((e) => ({ id: e.id, url: e.url })),
      });
    });

    app.patch<{ Body: ControlBody }>('/_sandbox/webhooks', async (request) => {
      const body = request.body ?? {};
      const delays = body.retry_delays;
      if (delays !== undefined) {
        if (!Array.isArray(delays) || !delays.every((d) => typeof d === 'number' && d >= 0)) {
          throw new SandboxError(400, 'bad_request', 'retry_delays must be a list of non-negative numbers of seconds');
        }
        store.opts.webhookRetryDelays = delays as number[];
      }
      if (body.lost_answers !== undefined) {
        if (typeof body.lost_answers !== 'number' || !Number.isInteger(body.lost_answers) || body.lost_answers < 0) {
          throw new SandboxError(400, 'bad_request', 'lost_answers must be a non-negative integer');
        }
        store.opts.webhookLostAnswers = body.lost_answers;
      }
      if (body.timestamp_digits !== undefined) {
        if (body.timestamp_digits !== 3 && body.timestamp_digits !== 6)
          throw new SandboxError(400, 'bad_request', 'timestamp_digits must be 3 or 6');
        store.opts.webhookTimestampDigits = body.timestamp_digits;
      }
      if (typeof body.delay === 'number' && body.delay >= 0) store.opts.webhookDelay = body.delay;
      return {
        delay: store.opts.webhookDelay,
        retry_delays: store.opts.webhookRetryDelays ?? DEFAULT_RETRY_DELAYS_S,
        lost_answers: store.opts.webhookLostAnswers ?? 0,
        timestamp_digits: store.opts.webhookTimestampDigits ?? 3,
      };
    });
  },
};
