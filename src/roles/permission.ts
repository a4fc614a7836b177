import type { PermissionPair } from '../api/roles.js';
import { UsageError } from '../errors.js';

export const pairText = (p: PermissionPair): string => `${p.layer}:${p.permission}`;

/** `LAYER:PERMISSION` (or `LAYER.PERMISSION`, as the contract writes `EXTRACT.CREATE`); undefined when it is neither. */
export function pairOf(text: string): PermissionPair | undefined {
  const m = /^\s*([A-Za-z0-9_]+)\s*[:.]\s*([A-Za-z0-9_]+)\s*$/.exec(text);
  return m ? { layer: m[1]!, permission: m[2]! } : undefined;
}

export function notAPermission(text: string): string {
  return `"${text}" is not LAYER:PERMISSION (for example EXTRACT:CREATE; \`edp roles permissions\` lists them)`;
}

/** A permission from a flag; a usage error naming `where` when it is not `LAYER:PERMISSION`. */
export function parsePermission(text: string, where: string): PermissionPair {
  const pair = pairOf(text);
  if (!pair) throw new UsageError(`${where}: ${notAPermission(text)}`);
  return pair;
}
