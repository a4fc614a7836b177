import type { Received, ReceivedWith, Without } from '../contract/answers.js';
import type { Sent, webhookEndpointCreate, webhookEndpointPatch } from '../contract/requests.js';
import type { ListOptions, Service } from './service.js';

/**
 * Webhook endpoints: workspace operations (Bearer). Paths end with a slash (docs/contract-rules.md, Webhook
 * endpoints).
 */

export type WebhookEndpoint = ReceivedWith<
  'WebhookEndpoint',
  {
    /** receiver address (the key is `url`, as the vendor's documentation names it) */
    url?: string;
  }
>;

export interface WebhookEventType {
  event_name: string;
  [key: string]: unknown;
}

export { SILENT_EVENT_TYPES } from '../contract/events.js';

export function listWebhookEndpoints(api: Service, ws: string, opts?: ListOptions): AsyncGenerator<WebhookEndpoint> {
  return api.list<'webhooks.list', WebhookEndpoint>('webhooks.list', { workspaceId: ws }, opts);
}

export function listWebhookEventTypes(api: Service, ws: string, opts?: ListOptions): AsyncGenerator<WebhookEventType> {
  return api.list<'webhookEventTypes.list', WebhookEventType>('webhookEventTypes.list', { workspaceId: ws }, opts);
}

export function getWebhookEndpoint(api: Service, ws: string, id: string): Promise<WebhookEndpoint> {
  return api.read<'webhooks.get', WebhookEndpoint>('webhooks.get', { params: { id }, workspaceId: ws, expect: ['id'] });
}

/** The answer of create and of a rotation: the endpoint's id and its secret, shown only there. */
export type EndpointWithSecret = Received<'EndpointCreated'> & Partial<Without<WebhookEndpoint, 'id' | 'secret'>>;

export async function createWebhookEndpoint(
  api: Service,
  ws: string,
  body: Sent<typeof webhookEndpointCreate>,
): Promise<EndpointWithSecret> {
  // Not repeatable: a second create would make a second endpoint with its own secret.
  const res = await api.call<'webhooks.create', EndpointWithSecret>('webhooks.create', { workspaceId: ws, body });
  return res.data;
}

export async function updateWebhookEndpoint(
  api: Service,
  ws: string,
  id: string,
  eventTypes: string[],
): Promise<WebhookEndpoint> {
  const res = await api.call<'webhooks.update', WebhookEndpoint>('webhooks.update', {
    params: { id },
    workspaceId: ws,
    body: { event_types: eventTypes } satisfies Sent<typeof webhookEndpointPatch>,
    // Setting the same subscription twice leaves the same state.
  });
  return res.data;
}

export async function deleteWebhookEndpoint(api: Service, ws: string, id: string): Promise<void> {
  await api.call('webhooks.delete', { params: { id }, workspaceId: ws });
}

export async function verifyWebhookEndpoint(api: Service, ws: string, id: string): Promise<WebhookEndpoint> {
  const res = await api.call<'webhooks.verify', WebhookEndpoint>('webhooks.verify', {
    params: { id },
    workspaceId: ws,
    // Another challenge round trip changes nothing that the first did not.
  });
  return res.data;
}

export async function rotateWebhookSecret(api: Service, ws: string, id: string): Promise<EndpointWithSecret> {
  // Not repeatable: a repeat would rotate again and the secret of the lost answer would be gone.
  const res = await api.call<'webhooks.regenerateSecret', EndpointWithSecret>('webhooks.regenerateSecret', {
    params: { id },
    workspaceId: ws,
  });
  return res.data;
}
