import { suggest } from '../util/suggest.js';
import type { CatalogLayer, PermissionPair } from '../api/roles.js';
import { UsageError } from '../errors.js';

export const pairText = (p: PermissionPair): string => `${p.layer}:${p.permission}`;

/** `LAYER:PERMISSION` (or `LAYER.PERMISSION`, as the contract writes `EXTRACT.CREATE`); undefined when it is neither. */
export function pairOf(text: string): PermissionPair | undefined {
  const m = /^\s*([A-Za-z0-9_]+)\s*[:.]\s*([A-Za-z0-9_]+)\s*$/.exec(text);
  return m ? { layer: m[1]!, permission: m[2]! } : undefined;
}

export function notAPermission(text: string): string {
  return `"${text}" is not LAYER:PERMISSION (for example EXTRACT:CREATE; \`${suggest(['roles', 'permissions'])}\` lists them)`;
}

/** A permission from a flag; a usage error naming `where` when it is not `LAYER:PERMISSION`. */
export function parsePermission(text: string, where: string): PermissionPair {
  const pair = pairOf(text);
  if (!pair) throw new UsageError(`${where}: ${notAPermission(text)}`);
  return pair;
}

/** `name` and `wanted` are the same name, letter case aside; a name the catalog left out matches nothing. */
const sameName = (name: string | undefined, wanted: string) =>
  name !== undefined && name.toLowerCase() === wanted.toLowerCase();

/**
 * The catalog's layer of a pair and its permission, each found by exact name first, then letter
 * case aside (the catalog's spelling wins); undefined where the catalog has none.
 */
export function inCatalog(
  catalog: readonly CatalogLayer[],
  pair: PermissionPair,
): { layer?: CatalogLayer; pair?: PermissionPair } {
  const layer = catalog.find((l) => l.layer === pair.layer) ?? catalog.find((l) => sameName(l.layer, pair.layer));
  if (!layer?.layer) return {};
  const perms = layer.permissions ?? [];
  const perm =
    perms.find((p) => p.permission === pair.permission) ?? perms.find((p) => sameName(p.permission, pair.permission));
  return perm?.permission ? { layer, pair: { layer: layer.layer, permission: perm.permission } } : { layer };
}

/** A catalog entry's pair as text; `?` for a name the catalog left out. */
export const catalogPairText = (layer: CatalogLayer, permission: { permission?: string }): string =>
  `${layer.layer ?? '?'}:${permission.permission ?? '?'}`;
