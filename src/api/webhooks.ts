import { path } from './path.js';
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
  return api.list<WebhookEndpoint>({ path: '/api/v3/webhook_endpoints/', auth: 'bearer', workspaceId: ws }, opts);
}

export function listWebhookEventTypes(api: Service, ws: string, opts?: ListOptions): AsyncGenerator<WebhookEventType> {
  return api.list<WebhookEventType>({ path: '/api/v3/webhook_event_types/', auth: 'bearer', workspaceId: ws }, opts);
}

export function getWebhookEndpoint(api: Service, ws: string, id: string): Promise<WebhookEndpoint> {
  return api.client.get<WebhookEndpoint>(path`/api/v3/webhook_endpoints/${id}/`, 'bearer', ws, ['id']);
}

/** The answer of create and of a rotation: the endpoint's id and its secret, shown only there. */
export type EndpointWithSecret = Received<'EndpointCreated'> & Partial<Without<WebhookEndpoint, 'id' | 'secret'>>;

export async function createWebhookEndpoint(
  api: Service,
  ws: string,
  body: Sent<typeof webhookEndpointCreate>,
): Promise<EndpointWithSecret> {
  // Not repeatable: a second create would make a second endpoint with its own secret.
  const res = await api.client.request<EndpointWithSecret>({
    method: 'POST',
    path: '/api/v3/webhook_endpoints/',
    auth: 'bearer',
    workspaceId: ws,
    body,
  });
  return res.data;
}

export async function updateWebhookEndpoint(
  api: Service,
  ws: string,
  id: string,
  eventTypes: string[],
): Promise<WebhookEndpoint> {
  const res = await api.client.request<WebhookEndpoint>({
    method: 'PATCH',
    path: path`/api/v3/webhook_endpoints/${id}/`,
    auth: 'bearer',
    workspaceId: ws,
    body: { event_types: eventTypes } satisfies Sent<typeof webhookEndpointPatch>,
    // Setting the same subscription twice leaves the same state.
    repeatable: true,
  });
  return res.data;
}

export async function deleteWebhookEndpoint(api: Service, ws: string, id: string): Promise<void> {
  await api.client.request({
    method: 'DELETE',
    path: path`/api/v3/webhook_endpoints/${id}/`,
    auth: 'bearer',
    workspaceId: ws,
  });
}

export async function verifyWebhookEndpoint(api: Service, ws: string, id: string): Promise<WebhookEndpoint> {
  const res = await api.client.request<WebhookEndpoint>({
    method: 'POST',
    path: path`/api/v3/webhook_endpoints/${id}/verify/`,
    auth: 'bearer',
    workspaceId: ws,
    // Another challenge round trip changes nothing that the first did not.
    repeatable: true,
  });
  return res.data;
}

export async function rotateWebhookSecret(api: Service, ws: string, id: string): Promise<EndpointWithSecret> {
  // Not repeatable: a repeat would rotate again and the secret of the lost answer would be gone.
  const res = await api.client.request<EndpointWithSecret>({
    method: 'POST',
    path: path`/api/v3/webhook_endpoints/${id}/regenerate_secret/`,
    auth: 'bearer',
    workspaceId: ws,
  });
  return res.data;
}
