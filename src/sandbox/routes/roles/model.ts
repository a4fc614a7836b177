import type { Store } from '../../state.js';
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
declare module '../../state.js' {
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
