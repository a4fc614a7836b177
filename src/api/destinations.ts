import { path } from './path.js';
import type {
  destinationConnectionCreate,
  destinationConnectionPatch,
  destinationConnectionPut,
  Sent,
} from '../contract/requests.js';
import type { ListOptions, Service } from './service.js';

/** Destinations and destination connections: workspace operations (Bearer). */

export interface Destination {
  name: string;
  title?: string;
  [key: string]: unknown;
}

export interface DestinationConnection {
  id: number | string;
  title?: string;
  destination_name?: string;
  status?: string;
  error_text?: string | null;
  connection_params?: Record<string, unknown>;
  [key: string]: unknown;
}

export function listDestinations(api: Service, ws: string, opts?: ListOptions): AsyncGenerator<Destination> {
  return api.list<Destination>({ path: '/api/v3/destinations', auth: 'bearer', workspaceId: ws }, opts);
}

export function listDestinationConnections(
  api: Service,
  ws: string,
  destination: string,
  opts?: ListOptions,
): AsyncGenerator<DestinationConnection> {
  return api.list<DestinationConnection>(
    { path: path`/api/v3/destinations/${destination}/connections`, auth: 'bearer', workspaceId: ws },
    opts,
  );
}

export function getDestinationConnection(
  api: Service,
  ws: string,
  destination: string,
  id: string,
): Promise<DestinationConnection> {
  return api.client.get<DestinationConnection>(
    path`/api/v3/destinations/${destination}/connections/${id}`,
    'bearer',
    ws,
    ['id'],
  );
}

export async function createDestinationConnection(
  api: Service,
  ws: string,
  destination: string,
  title: string,
  params: Record<string, unknown>,
): Promise<DestinationConnection> {
  const res = await api.client.request<DestinationConnection>({
    method: 'POST',
    path: path`/api/v3/destinations/${destination}/connections`,
    auth: 'bearer',
    workspaceId: ws,
    body: { title, connection_params: params } satisfies Sent<typeof destinationConnectionCreate>,
  });
  return res.data;
}

/**
 * `connection_params` merged per field (omitted ones keep their values); the service re-checks
 * the connection (docs/contract-rules.md, Destination connections, PUT rule). Sending the same
 * parameters again is harmless.
 */
export async function putDestinationConnection(
  api: Service,
  ws: string,
  destination: string,
  id: string,
  params: Record<string, unknown>,
  title?: string,
): Promise<DestinationConnection> {
  const res = await api.client.request<DestinationConnection>({
    method: 'PUT',
    path: path`/api/v3/destinations/${destination}/connections/${id}`,
    auth: 'bearer',
    workspaceId: ws,
    body: {
      ...(title !== undefined ? { title } : {}),
      connection_params: params,
    } satisfies Sent<typeof destinationConnectionPut>,
    repeatable: true,
  });
  return res.data;
}

/** PATCH (body not shown) changes the title only. */
export async function renameDestinationConnection(
  api: Service,
  ws: string,
  destination: string,
  id: string,
  title: string,
): Promise<DestinationConnection> {
  const res = await api.client.request<DestinationConnection>({
    method: 'PATCH',
    path: path`/api/v3/destinations/${destination}/connections/${id}`,
    auth: 'bearer',
    workspaceId: ws,
    body: { title } satisfies Sent<typeof destinationConnectionPatch>,
    repeatable: true,
  });
  return res.data;
}

/** Recheck (bodies not shown): sent without a body; answers the connection after the check. A check may be repeated. */
export async function recheckDestinationConnection(
  api: Service,
  ws: string,
  destination: string,
  id: string,
): Promise<DestinationConnection> {
  const res = await api.client.request<DestinationConnection>({
    method: 'PUT',
    path: path`/api/v3/destinations/${destination}/connections/${id}/recheck`,
    auth: 'bearer',
    workspaceId: ws,
    repeatable: true,
  });
  return res.data;
}
