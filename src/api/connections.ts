import { path } from './path.js';
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
  return api.list<Connection>(
    { path: path`/api/v3/datasources/${datasource}/connections`, auth: 'bearer', workspaceId: ws },
    opts,
  );
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
  const target = datasource
    ? path`/api/v3/datasources/${datasource}/connections/${connectionId}`
    : path`/api/v3/connections/${connectionId}`;
  await api.client.request({ method: 'DELETE', path: target, auth: 'bearer', workspaceId: ws });
}
