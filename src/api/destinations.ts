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
  return api.list<'destinations.list', Destination>('destinations.list', { workspaceId: ws }, opts);
}

export function listDestinationConnections(
  api: Service,
  ws: string,
  destination: string,
  opts?: ListOptions,
): AsyncGenerator<DestinationConnection> {
  return api.list<'destinationConnections.list', DestinationConnection>(
    'destinationConnections.list',
    { params: { destination_name: destination }, workspaceId: ws },
    opts,
  );
}

export function getDestinationConnection(
  api: Service,
  ws: string,
  destination: string,
  id: string,
): Promise<DestinationConnection> {
  return api.read<'destinationConnections.get', DestinationConnection>('destinationConnections.get', {
    params: { destination_name: destination, id },
    workspaceId: ws,
    expect: ['id'],
  });
}

export async function createDestinationConnection(
  api: Service,
  ws: string,
  destination: string,
  title: string,
  params: Record<string, unknown>,
): Promise<DestinationConnection> {
  const res = await api.call<'destinationConnections.create', DestinationConnection>('destinationConnections.create', {
    params: { destination_name: destination },
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
  const res = await api.call<'destinationConnections.merge', DestinationConnection>('destinationConnections.merge', {
    params: { destination_name: destination, id },
    workspaceId: ws,
    body: {
      ...(title !== undefined ? { title } : {}),
      connection_params: params,
    } satisfies Sent<typeof destinationConnectionPut>,
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
  const res = await api.call<'destinationConnections.update', DestinationConnection>('destinationConnections.update', {
    params: { destination_name: destination, id },
    workspaceId: ws,
    body: { title } satisfies Sent<typeof destinationConnectionPatch>,
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
  const res = await api.call<'destinationConnections.recheck', DestinationConnection>(
    'destinationConnections.recheck',
    { params: { destination_name: destination, destination_connection_id: id }, workspaceId: ws },
  );
  return res.data;
}
