import type { Received } from '../contract/answers.js';
import type { ListOptions, Service } from './service.js';

/** Connections to data sources: workspace operations (Bearer). */

/** A connection: its id and the counts the contract shows in lists. */
export type Connection = Received<'Connection'>;

export function listConnections(
  api: Service,
  ws: string,
  datasource: string,
  opts?: ListOptions,
): AsyncGenerator<Connection> {
  return api.list('connections.list', { params: { datasource_name: datasource }, workspaceId: ws }, opts);
}

/**
 * DELETE a connection, by the data source path when the data source is given, else by
 * `/api/v3/connections/{id}`. Its accounts become inactive and its extractions pause. Not
 * repeated on a lost answer: a repeated delete answers 404.
 */
export async function deleteConnection(
  api: Service,
  ws: string,
  connectionId: string,
  datasource?: string,
): Promise<void> {
  if (datasource)
    await api.call('connections.deleteOfDatasource', {
      params: { datasource_name: datasource, id: connectionId },
      workspaceId: ws,
    });
  else await api.call('connections.delete', { params: { connection_id: connectionId }, workspaceId: ws });
}
