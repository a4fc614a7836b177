import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SandboxArea } from '../area.js';
import { badRequest, forbidden, notFound } from '../errors.js';
import {
  byId,
  paginate,
  parseBody,
  pathId,
  queryBool,
  requireBasic,
  requireBearer,
  sandboxBaseUrl,
  type IdParams,
} from '../http.js';
import type { Store } from '../store.js';
import { idOf } from '../../util/json.js';
import {
  agencyRecipeEnable,
  iframeUrlQuery,
  iframeUrlRequest,
  tokenRequest,
  workspaceTitle,
} from '../../contract/requests.js';
import type { User } from '../types.js';
import { serve } from '../operations.js';
import { operationPath } from '../../contract/operations.js';

/** Workspaces an agency user may manage: all for the chief, their own otherwise. */
function visibleWorkspace(store: Store, user: User, id: number) {
  const ws = store.workspace(id);
  if (!ws || (!user.is_agency_chief && !user.workspace_ids.includes(id))) throw notFound('Workspace not found.');
  return ws;
}

function workspaceData(store: Store, wsTitle: string): Record<string, string> {
  return { agency_title: store.state.agency.title, workspace_title: wsTitle };
}

/** The dashboards operation leaves its authentication unstated: the agency credential or a token of that workspace. */
function basicOrBearerFor(store: Store, request: FastifyRequest, wsId: number): void {
  if (request.headers.authorization?.startsWith('Basic ')) {
    visibleWorkspace(store, requireBasic(store, request), wsId);
    return;
  }
  const auth = requireBearer(store, request);
  if (auth.workspaceId !== wsId) throw notFound('Workspace not found.');
}

export const coreArea: SandboxArea = {
  name: 'core',
  routes(app: FastifyInstance, store: Store) {
    const s = () => store.state;

    serve(app, 'token.issue', { config: { body: tokenRequest } }, async (request) => {
      const user = requireBasic(store, request);
      const parsed = tokenRequest.safeParse(request.body ?? {});
      const wsId = parsed.success ? idOf(parsed.data.workspace_id) : undefined;
      if (wsId === undefined)
        throw badRequest('workspace_id: A valid integer is required.', {
          workspace_id: ['A valid integer is required.'],
        });
      const ws = store.workspace(wsId);
      if (!ws || (!user.is_agency_chief && !user.workspace_ids.includes(wsId))) {
        throw badRequest('workspace_id: Workspace not found in this agency.', {
          workspace_id: ['Workspace not found in this agency.'],
        });
      }
      const token = store.secret(20);
      const now = store.clock.now();
      s().tokens[token] = { workspace_id: wsId, user_id: user.id, issued_at: now, last_used_at: now };
      store.changed();
      return { token };
    });

    serve(app, 'workspaces.list', async (request) => {
      const user = requireBasic(store, request);
      const items = s()
        .workspaces.filter((w) => user.is_agency_chief || user.workspace_ids.includes(w.id))
        .sort(byId);
      return paginate(
        request,
        items.map(({ id, title }) => ({ id, title })),
        { mode: 'v3' },
      );
    });

    serve(app, 'workspaces.create', { config: { body: workspaceTitle } }, async (request, reply) => {
      const user = requireBasic(store, request);
      if (!user.is_agency_chief) throw forbidden('Only the agency chief can create workspaces.');
      const { title } = parseBody(workspaceTitle, request.body);
      const ws = { id: store.nextId('workspace'), title, created_at: store.clock.iso() };
      s().workspaces.push(ws);
      for (const u of s().users) if (u.is_agency_chief) u.workspace_ids.push(ws.id);
      store.emit('workspace_created', ws.id, 'Workspace', workspaceData(store, ws.title));
      store.changed();
      return reply.code(201).send({ id: ws.id, title: ws.title });
    });

    serve<{ Params: IdParams }>(app, 'workspaces.get', async (request) => {
      const user = requireBasic(store, request);
      const ws = visibleWorkspace(store, user, pathId(request.params.id));
      return { id: ws.id, title: ws.title };
    });

    serve<{ Params: IdParams }>(app, 'workspaces.rename', { config: { body: workspaceTitle } }, async (request) => {
      const user = requireBasic(store, request);
      const ws = visibleWorkspace(store, user, pathId(request.params.id));
      const { title } = parseBody(workspaceTitle, request.body);
      ws.title = title;
      store.changed();
      return { id: ws.id, title: ws.title };
    });

    serve<{ Params: IdParams }>(app, 'workspaces.dashboards', async (request) => {
      const wsId = pathId(request.params.id);
      if (!store.workspace(wsId)) {
        // authentication first: an unauthenticated caller learns nothing
        basicOrBearerFor(store, request, wsId);
        throw notFound('Workspace not found.');
      }
      basicOrBearerFor(store, request, wsId);
      const enabled = new Set(
        s()
          .enabled_recipes.filter((e) => e.workspace_id === wsId)
          .map((e) => e.recipe_id),
      );
      const dashboards = s()
        .agency_recipes.filter((r) => enabled.has(r.id))
        .flatMap((r) => r.dashboards.filter((d) => d.type === 'DATA').map((d) => ({ ...d, recipe_id: r.id })))
        .sort(byId);
      return paginate(request, dashboards, { mode: 'v3' });
    });

    serve(app, 'agencyRecipes.list', async (request) => {
      requireBasic(store, request);
      const items = [...s().agency_recipes]
        .sort(byId)
        .map(({ id, title, description }) => ({ id, title, description }));
      return paginate(request, items, { mode: 'v3' });
    });

    // No trailing slash on this one (docs/contract-rules.md, Enabling a recipe in a workspace).
    serve<{ Params: IdParams }>(
      app,
      'workspaces.enableRecipe',
      { config: { body: agencyRecipeEnable } },
      async (request, reply) => {
        const user = requireBasic(store, request);
        const wsId = pathId(request.params.id);
        if (!s().agency.flags.recipe_pipeline) throw forbidden('The recipe pipeline is disabled for this agency.');
        visibleWorkspace(store, user, wsId);
        const parsed = agencyRecipeEnable.safeParse(request.body ?? {});
        const recipeId = parsed.success ? idOf(parsed.data.recipe_id) : undefined;
        if (recipeId === undefined)
          throw badRequest('recipe_id: A valid integer is required.', { recipe_id: ['A valid integer is required.'] });
        if (!s().agency_recipes.some((r) => r.id === recipeId)) throw notFound('Recipe not found.');
        if (!s().enabled_recipes.some((e) => e.workspace_id === wsId && e.recipe_id === recipeId)) {
          s().enabled_recipes.push({ workspace_id: wsId, recipe_id: recipeId });
          store.changed();
        }
        return reply.code(204).send();
      },
    );

    serve<{ Body: Record<string, unknown> | undefined }>(
      app,
      'iframe.url',
      { config: { body: iframeUrlRequest, query: iframeUrlQuery } },
      async (request) => {
        const user = requireBasic(store, request);
        const body = request.body ?? {};
        const wsId = idOf(body.workspace_id);
        if (wsId === undefined)
          throw badRequest('workspace_id: A valid integer is required.', {
            workspace_id: ['A valid integer is required.'],
          });
        if (!store.workspace(wsId) || (!user.is_agency_chief && !user.workspace_ids.includes(wsId))) {
          throw badRequest('workspace_id: Workspace not found in this agency.');
        }
        const type = body.type ?? null;
        if (type !== null && type !== 'datasource' && type !== 'destination') {
          throw badRequest('type: must be "datasource" or "destination".', {
            type: ['"datasource" or "destination" expected.'],
          });
        }
        const name = body.name ?? null;
        if (name !== null && (typeof name !== 'string' || name === ''))
          throw badRequest('name: A valid string is required.');
        if (typeof name === 'string') {
          const known =
            type === 'destination'
              ? s().destinations.some((d) => d.name === name)
              : s().datasources.some((d) => d.name === name);
          if (!known) throw badRequest(`name: unknown ${type ?? 'datasource'} "${name}".`);
        }
        const options: Record<string, boolean> = {};
        for (const key of ['show_connectors_list', 'show_datasources', 'show_accounts', 'show_accounts_only_on_auth']) {
          const v = queryBool(request, key);
          if (v !== undefined) options[key] = v;
        }
        const code = store.secret(16);
        s().iframe_sessions[code] = {
          workspace_id: wsId,
          type: type as string | null,
          name: name as string | null,
          options,
          issued_ms: store.clock.now(),
        };
        store.changed();
        const url = new URL(`${sandboxBaseUrl(request)}${operationPath('iframe.page')}`);
        url.searchParams.set('code', code);
        if (type) url.searchParams.set('type', type as string);
        if (name) url.searchParams.set('name', name as string);
        return { url: url.toString() };
      },
    );
  },
};
