import type { Received, ReceivedWith, Without } from '../contract/answers.js';
import type { rolePatch, roleWrite, Sent } from '../contract/requests.js';
import type { ListOptions, Service } from './service.js';

/**
 * Roles: Basic authentication with an agency chief's credential, agency flag
 * `can_use_embedded_api` (docs/contract-rules.md, Authentication rule 4). Mind the paths: `/roles/` ends with
 * a slash, `/roles/permissions`, `/roles/{id}` and `/roles/{id}/users` do not.
 */

export interface PermissionPair {
  layer: string;
  permission: string;
}

export type Role = ReceivedWith<
  'Role',
  {
    permissions?: PermissionPair[];
    /** read-only role of the service (Workspace Admin, Editor, Viewer, …) */
    is_system?: boolean;
  }
>;

type CatalogItem = Received<'PermissionCatalog'>[number];

/** A layer's or a permission's title and description. */
export type CatalogEntry = CatalogItem['permissions'][number];

/**
 * A product layer of the catalog, with its permissions. Their names (`layer`, `permission`, what
 * a role's pairs hold) are the vendor's documentation's: the contract shows only the titles and
 * descriptions.
 */
export type CatalogLayer = Without<CatalogItem, 'permissions'> & {
  layer?: string;
  permissions: Array<CatalogEntry & { permission?: string }>;
};

export interface RoleUser {
  id: number | string;
  email?: string;
  workspaces?: Array<{ id: number | string; title?: string }>;
  [key: string]: unknown;
}

/** A role's fields to change; creating one needs a title and its permissions. */
export type RoleWrite = Sent<typeof rolePatch>;

export function listRoles(api: Service, opts?: ListOptions): AsyncGenerator<Role> {
  return api.list<'roles.list', Role>('roles.list', {}, opts);
}

export function getRole(api: Service, id: string): Promise<Role> {
  return api.read<'roles.get', Role>('roles.get', { params: { role_id: id }, expect: ['id'] });
}

/** The ordered permission catalog (a plain list of layers, or a page of them). */
export async function getPermissionCatalog(api: Service): Promise<CatalogLayer[]> {
  const data = await api.read<'roles.permissions', CatalogLayer[] | { results: CatalogLayer[] }>('roles.permissions', {
    expect: 'list',
  });
  return Array.isArray(data) ? data : (data?.results ?? []);
}

export async function createRole(api: Service, body: Sent<typeof roleWrite>): Promise<Role> {
  // A repeated create answers 409 (title taken) when the first landed.
  const res = await api.call<'roles.create', Role>('roles.create', { body, expect: ['id'] });
  return res.data;
}

export async function updateRole(api: Service, id: string, body: RoleWrite): Promise<Role> {
  // The same PATCH twice leaves the same role.
  const res = await api.call<'roles.update', Role>('roles.update', { params: { role_id: id }, body });
  return res.data;
}

export async function deleteRole(
  api: Service,
  id: string,
): Promise<{ reassigned_users_count?: number; [key: string]: unknown }> {
  const res = await api.call<'roles.delete', { reassigned_users_count?: number }>('roles.delete', {
    params: { role_id: id },
  });
  return res.data ?? {};
}

export function listRoleUsers(api: Service, id: string, opts?: ListOptions): AsyncGenerator<RoleUser> {
  return api.list<'roles.users', RoleUser>('roles.users', { params: { role_id: id } }, opts);
}
