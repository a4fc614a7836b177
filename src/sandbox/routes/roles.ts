import type { FastifyInstance, FastifyRequest } from 'fastify';
import { rolePatch, roleWrite } from '../../contract/requests.js';
import type { SandboxArea } from '../area.js';
import { SandboxError, forbidden, notFound, validationError, type FieldError } from '../errors.js';
import { byId, paginate, parseBody, pathId, requireBasic } from '../http.js';
import type { Store } from '../store.js';
import { PERMISSION_CATALOG, allPermissions, layerOf, pairsOf, type PermissionPair } from './roles/catalog.js';
import { assignmentsOf, rolesOf, type Role } from './roles/model.js';
import { serve } from '../operations.js';

/** An agency chief's Basic credential and `can_use_embedded_api` (docs/contract-rules.md, Authentication rule 4). */
function requireRolesAccess(store: Store, request: FastifyRequest): void {
  const user = requireBasic(store, request);
  if (!user.is_agency_chief) throw forbidden('Only the agency chief can manage roles.');
  if (!store.state.agency.flags.can_use_embedded_api)
    throw forbidden('The embedded API is not enabled for this agency.');
}

/** Every pair must come from the catalog (400 otherwise, each bad one named by its position). */
function checkPermissions(pairs: PermissionPair[]): PermissionPair[] {
  const fields: FieldError[] = [];
  pairs.forEach((pair, i) => {
    const layer = layerOf(pair.layer);
    if (!layer)
      fields.push({
        field: `permissions[${i}].layer`,
        code: 'invalid',
        message: `"${pair.layer}" is not a layer of the permission catalog.`,
      });
    else if (!layer.permissions.some((x) => x.permission === pair.permission)) {
      fields.push({
        field: `permissions[${i}].permission`,
        code: 'invalid',
        message: `"${pair.permission}" is not a permission of layer ${pair.layer}.`,
      });
    }
  });
  if (fields.length > 0) throw validationError(fields);
  const seen = new Set<string>();
  return pairs.filter((p) => {
    const key = `${p.layer}:${p.permission}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Roles the agency sees: system roles that are not internal, and its own. */
function visibleRoles(store: Store): Role[] {
  return rolesOf(store).filter((r) => !r.is_internal);
}

function roleOf(store: Store, roleId: string): Role {
  const id = pathId(roleId);
  const role = visibleRoles(store).find((r) => r.id === id);
  if (!role) throw notFound('Role not found.');
  return role;
}

function usersOf(store: Store, role: Role): number[] {
  return [
    ...new Set(
      assignmentsOf(store)
        .filter((a) => a.role_id === role.id)
        .map((a) => a.user_id),
    ),
  ];
}

function view(store: Store, role: Role): Record<string, unknown> {
  const { id, title, description, is_system, permissions } = role;
  return { id, title, description, is_system, permissions, user_count: usersOf(store, role).length };
}

/** Titles are unique in the agency, compared without regard to case or surrounding blanks. */
function checkTitleFree(store: Store, title: string, self?: Role): void {
  const key = title.trim().toLowerCase();
  const taken = visibleRoles(store).find((r) => r !== self && r.title.trim().toLowerCase() === key);
  if (taken) throw new SandboxError(409, 'conflict', `A role titled "${taken.title}" already exists.`);
}

function readOnly(role: Role): void {
  if (role.is_system) throw forbidden(`"${role.title}" is a system role and cannot be changed or deleted.`);
}

const ADMIN_TITLE = 'Workspace Admin';
const EDITOR_TITLE = 'Editor';
const VIEWER_TITLE = 'Viewer';

/** Custom workspace roles and the permission catalog (docs/contract-rules.md, Roles table). */
export const rolesArea: SandboxArea = {
  name: 'roles',
  init(store) {
    rolesOf(store);
    assignmentsOf(store);
  },
  catalog(store) {
    const all = allPermissions();
    const system = (title: string, description: string, permissions: PermissionPair[], internal = false) =>
      rolesOf(store).push({
        id: store.nextId('role'),
        title,
        description,
        permissions,
        is_system: true,
        is_internal: internal,
      });
    system(ADMIN_TITLE, 'Everything in the workspace, members included', all);
    system(
      EDITOR_TITLE,
      'Works with data; does not manage members or delete',
      all.filter((p) => p.permission !== 'DELETE' && p.permission !== 'MANAGE_USERS'),
    );
    system(
      VIEWER_TITLE,
      'Sees everything, changes nothing',
      all.filter((p) => p.permission === 'VIEW'),
    );
    system('Support Access', 'Used by the service for support sessions', all, true);
  },
  seed(store) {
    const s = store.state;
    const byTitle = (title: string): Role => rolesOf(store).find((r) => r.title === title)!;
    const admin = byTitle(ADMIN_TITLE);
    const editor = byTitle(EDITOR_TITLE);
    const viewer = byTitle(VIEWER_TITLE);
    const buyer: Role = {
      id: store.nextId('role'),
      title: 'Media Buyer',
      description: 'Runs extraction and builds recipes',
      permissions: pairsOf({
        CONNECTION: ['VIEW'],
        EXTRACT: ['VIEW', 'CREATE', 'RUN'],
        DATA_TABLE: ['VIEW'],
        RECIPE: ['VIEW', 'BUILD'],
      }),
      is_system: false,
      is_internal: false,
    };
    rolesOf(store).push(buyer);

    // One more demo user, so that every system role and the custom role have members.
    const [w1, w2, w3] = s.workspaces.map((w) => w.id);
    const editorUser = {
      id: store.nextId('user'),
      email: 'editor@sandbox.local',
      password: 'sandbox',
      first_name: 'Drew',
      last_name: 'Editor',
      is_active: true,
      is_agency_chief: false,
      is_agency_owner: false,
      workspace_ids: [w1!, w2!, w3!],
    };
    s.users.push(editorUser);
    const assign = (email: string, workspaceId: number, r: Role) => {
      const user = s.users.find((u) => u.email === email);
      if (user) assignmentsOf(store).push({ user_id: user.id, workspace_id: workspaceId, role_id: r.id });
    };
    for (const ws of s.workspaces) assign(store.opts.username, ws.id, admin);
    assign('analyst@sandbox.local', w1!, buyer);
    assign('former@sandbox.local', w1!, viewer);
    assign(editorUser.email, w1!, editor);
    assign(editorUser.email, w2!, editor);
    assign(editorUser.email, w3!, viewer);
  },
  routes(app: FastifyInstance, store: Store) {
    serve(app, 'roles.list', async (request) => {
      requireRolesAccess(store, request);
      return paginate(
        request,
        [...visibleRoles(store)].sort(byId).map((r) => view(store, r)),
        { mode: 'v3' },
      );
    });

    serve(app, 'roles.create', { config: { body: roleWrite } }, async (request, reply) => {
      requireRolesAccess(store, request);
      const body = parseBody(roleWrite, request.body);
      const permissions = checkPermissions(body.permissions);
      checkTitleFree(store, body.title);
      const role: Role = {
        id: store.nextId('role'),
        title: body.title,
        description: body.description ?? '',
        permissions,
        is_system: false,
        is_internal: false,
      };
      rolesOf(store).push(role);
      store.changed();
      return reply.code(201).send(view(store, role));
    });

    // No trailing slash on this path and the two below (docs/contract-rules.md, Roles table).
    serve(app, 'roles.permissions', async (request) => {
      requireRolesAccess(store, request);
      return PERMISSION_CATALOG;
    });

    serve<{ Params: { role_id: string } }>(app, 'roles.get', async (request) => {
      requireRolesAccess(store, request);
      return view(store, roleOf(store, request.params.role_id));
    });

    serve<{ Params: { role_id: string } }>(app, 'roles.update', { config: { body: rolePatch } }, async (request) => {
      requireRolesAccess(store, request);
      const role = roleOf(store, request.params.role_id);
      readOnly(role);
      const body = parseBody(rolePatch, request.body);
      const permissions = body.permissions === undefined ? undefined : checkPermissions(body.permissions);
      if (body.title !== undefined) checkTitleFree(store, body.title, role);
      if (body.title !== undefined) role.title = body.title;
      if (body.description !== undefined) role.description = body.description;
      if (permissions !== undefined) role.permissions = permissions;
      store.changed();
      return view(store, role);
    });

    // Deleting a custom role moves its users to the system Viewer role (docs/contract-rules.md, Other state effects).
    serve<{ Params: { role_id: string } }>(app, 'roles.delete', async (request) => {
      requireRolesAccess(store, request);
      const role = roleOf(store, request.params.role_id);
      readOnly(role);
      const viewer = rolesOf(store).find((r) => r.is_system && r.title === VIEWER_TITLE)!;
      const moved = assignmentsOf(store).filter((a) => a.role_id === role.id);
      const users = new Set(moved.map((a) => a.user_id));
      for (const a of moved) {
        a.role_id = viewer.id;
        const ws = store.workspace(a.workspace_id);
        if (ws)
          store.emit('user_workspace_role_changed', ws.id, 'Workspace', {
            agency_title: store.state.agency.title,
            workspace_title: ws.title,
          });
      }
      rolesOf(store).splice(rolesOf(store).indexOf(role), 1);
      store.changed();
      return { reassigned_users_count: users.size };
    });

    serve<{ Params: { role_id: string } }>(app, 'roles.users', async (request) => {
      requireRolesAccess(store, request);
      const role = roleOf(store, request.params.role_id);
      const byUser = new Map<number, Array<{ id: number; title: string }>>();
      for (const a of assignmentsOf(store)) {
        if (a.role_id !== role.id) continue;
        const ws = store.workspace(a.workspace_id);
        if (!ws) continue;
        byUser.set(a.user_id, [...(byUser.get(a.user_id) ?? []), { id: ws.id, title: ws.title }]);
      }
      const items = store.state.users
        .filter((u) => byUser.has(u.id))
        .sort(byId)
        .map((u) => ({
          id: u.id,
          email: u.email,
          first_name: u.first_name,
          last_name: u.last_name,
          is_active: u.is_active,
          workspaces: byUser.get(u.id)!.sort(byId),
        }));
      return paginate(request, items, { mode: 'v3' });
    });
  },
};
