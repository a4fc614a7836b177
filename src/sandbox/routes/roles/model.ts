import type { Store } from '../../store.js';
import type { User } from '../../types.js';
import type { PermissionPair } from './catalog.js';

export interface Role {
  id: number;
  title: string;
  description: string;
  permissions: PermissionPair[];
  /** system roles are read-only and shared by every agency */
  is_system: boolean;
  /** internal system roles are never listed nor readable through the API */
  is_internal: boolean;
}

/** A user's role in one workspace: at most one per (user, workspace). */
export interface RoleAssignment {
  user_id: number;
  workspace_id: number;
  role_id: number;
}

// Optional in the type so that the shared `emptyState()` stays complete; read them through the accessors below.
declare module '../../types.js' {
  interface State {
    roles?: Role[];
    role_assignments?: RoleAssignment[];
  }
}

export function rolesOf(store: Store): Role[] {
  return (store.state.roles ??= []);
}

export function assignmentsOf(store: Store): RoleAssignment[] {
  return (store.state.role_assignments ??= []);
}

/**
 * Whether a user holds a `(layer, permission)` pair in a workspace: the agency chief and owner
 * hold every permission; anyone else holds those of their role in that workspace.
 */
export function holdsPermission(
  store: Store,
  user: User,
  workspaceId: number,
  layer: string,
  permission: string,
): boolean {
  if (user.is_agency_chief || user.is_agency_owner) return true;
  const assignment = assignmentsOf(store).find((a) => a.user_id === user.id && a.workspace_id === workspaceId);
  const role = assignment && rolesOf(store).find((r) => r.id === assignment.role_id);
  return !!role?.permissions.some((p) => p.layer === layer && p.permission === permission);
}
