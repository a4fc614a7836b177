import type { FastifyInstance } from 'fastify';
import { badRequest } from '../../errors.js';
import { byId, paginate, pathId, requireBearer } from '../../http.js';
import type { Store } from '../../store.js';
import type { Connection } from '../../types.js';
import {
  accountsOf,
  connectionEventData,
  connectionView,
  dataSource,
  extractionEventData,
  liveConnection,
} from './model.js';
import { serve } from '../../operations.js';

/**
 * Deleting a connection marks its accounts inactive and pauses its extractions
 * (docs/contract-rules.md, Other state effects). The connection then disappears from the API (a
 * repeated delete is 404); its accounts stay, inactive, so that a recipe naming them is refused
 * with `account_unavailable`.
 */
export function deleteConnection(store: Store, c: Connection): void {
  const now = store.clock.iso();
  c.deleted = true;
  for (const a of accountsOf(store, c.id)) {
    if (a.is_active) {
      a.is_active = false;
      a.updated_at = now;
    }
  }
  for (const e of store.state.extracts) {
    if (e.connection_id !== c.id || e.is_paused) continue;
    e.is_paused = true;
    e.pause_reason = 'connection_deleted';
    e.updated_at = now;
    store.emit('extraction_paused', e.workspace_id, 'Extraction', extractionEventData(store, e.workspace_id, e.id));
  }
  store.emit('connection_deleted', c.workspace_id, 'Connection', connectionEventData(store, c));
  store.changed();
}

export function connectionRoutes(app: FastifyInstance, store: Store): void {
  serve(app, 'datasources.list', async (request) => {
    requireBearer(store, request);
    const items = [...store.state.datasources]
      .sort((a, b) => a.name.localeCompare(b.name))
      .map(({ name, title, category }) => ({ name, title, category }));
    return paginate(request, items, { mode: 'v3' });
  });

  serve<{ Params: { datasource_name: string } }>(app, 'connections.list', async (request) => {
    const { workspaceId } = requireBearer(store, request);
    const { datasource_name: name } = request.params;
    if (!dataSource(store, name)) throw badRequest(`Unknown data source "${name}".`);
    const items = store.state.connections
      .filter((c) => c.workspace_id === workspaceId && c.datasource_name === name && !c.deleted)
      .sort(byId);
    const page = paginate(request, items, { mode: 'v3' });
    return { ...page, results: page.results.map((c) => connectionView(store, c)) };
  });

  serve<{ Params: { datasource_name: string; id: string } }>(
    app,
    'connections.deleteOfDatasource',
    async (request, reply) => {
      const { workspaceId } = requireBearer(store, request);
      const { datasource_name: name, id } = request.params;
      if (!dataSource(store, name)) throw badRequest(`Unknown data source "${name}".`);
      deleteConnection(store, liveConnection(store, workspaceId, pathId(id), name));
      return reply.code(204).send();
    },
  );

  serve<{ Params: { connection_id: string } }>(app, 'connections.delete', async (request, reply) => {
    const { workspaceId } = requireBearer(store, request);
    const { connection_id: id } = request.params;
    deleteConnection(store, liveConnection(store, workspaceId, pathId(id)));
    return reply.code(204).send();
  });
}
