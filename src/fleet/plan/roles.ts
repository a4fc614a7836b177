import { suggest } from '../../util/suggest.js';
import { getPermissionCatalog, listRoles, type PermissionPair, type Role } from '../../api/roles.js';
import { inCatalog, pairText } from '../../roles/permission.js';
import type { Service } from '../../api/service.js';
import { collect } from '../../util/collect.js';
import { type FleetFile, type RoleEntry } from '../file.js';

import type { AgencyPlan } from './types.js';
import { liveDigests, ROLE_FIELDS } from './live.js';
import { sameSet } from './webhooks.js';

/** Planning the agency's custom roles. */

const pairKey = (p: PermissionPair) => `${p.layer}:${p.permission}`.toUpperCase();

function roleDiffers(role: Role, entry: RoleEntry): boolean {
  return (
    (role.description ?? '') !== entry.description ||
    !sameSet((role.permissions ?? []).map(pairKey), entry.permissions.map(pairKey))
  );
}

export async function planRoles(api: Service, file: FleetFile, prune: boolean): Promise<AgencyPlan> {
  const out: AgencyPlan = { changes: [], blocked: [], unmanaged: [], error: null, live: {}, roles: [] };
  if (!file.manages.roles) return out;
  try {
    const [all, catalog] = await Promise.all([
      collect(listRoles(api)),
      file.roles.length > 0 ? getPermissionCatalog(api) : Promise.resolve([]),
    ]);
    const custom = all.filter((r) => r.is_system !== true);
    out.roles = custom;
    out.live = liveDigests('role', custom, (r) => r.id, ROLE_FIELDS);
    for (const entry of file.roles) {
      // Every pair must come from the catalog; a pair that differs only in letter case takes the catalog's spelling.
      const unknown: string[] = [];
      entry.permissions = entry.permissions.map((p) => {
        const known = inCatalog(catalog, p).pair;
        if (!known) unknown.push(pairText(p));
        return known ?? p;
      });
      if (unknown.length > 0) {
        out.blocked.push({
          resource: 'role',
          name: entry.title,
          code: 'permission_unknown',
          message: `not in the permission catalog: ${unknown.join(', ')} (\`${suggest(['roles', 'permissions'])}\` lists them)`,
        });
        continue;
      }
      const found = custom.find((r) => r.title === entry.title);
      if (!found)
        out.changes.push({
          resource: 'role',
          name: entry.title,
          action: 'create',
          id: null,
          detail: { description: entry.description, permissions: entry.permissions.map(pairKey) },
        });
      else if (roleDiffers(found, entry)) {
        out.changes.push({
          resource: 'role',
          name: entry.title,
          action: 'update',
          id: found.id,
          detail: {
            description: entry.description,
            permissions: entry.permissions.map(pairKey),
            was: { description: found.description ?? '', permissions: (found.permissions ?? []).map(pairKey) },
          },
        });
      }
    }
    for (const r of custom.filter((r) => !file.roles.some((e) => e.title === r.title))) {
      if (prune)
        out.changes.push({
          resource: 'role',
          name: r.title,
          action: 'delete',
          id: r.id,
          detail: { user_count: r.user_count ?? null },
        });
      else out.unmanaged.push({ resource: 'role', name: r.title, id: r.id });
    }
  } catch (err) {
    out.error = err;
  }
  return out;
}
