import { z } from 'zod';
import type { PermissionPair } from '../../../api/roles.js';
import { notAPermission, pairOf } from '../../../roles/permission.js';

/** A `--file` role (JSON or YAML): `title`, `description`, `permissions` as pairs or `LAYER:PERMISSION` strings. */

const KEYS = ['title', 'description', 'permissions'];

const permission = z.unknown().transform((p, ctx): PermissionPair => {
  if (typeof p === 'string') {
    const pair = pairOf(p);
    if (pair) return pair;
    ctx.addIssue({ code: 'custom', message: notAPermission(p) });
    return z.NEVER;
  }
  if (
    p &&
    typeof p === 'object' &&
    'layer' in p &&
    'permission' in p &&
    typeof p.layer === 'string' &&
    typeof p.permission === 'string'
  ) {
    return { layer: p.layer, permission: p.permission };
  }
  ctx.addIssue({ code: 'custom', message: 'must be {layer, permission} or "LAYER:PERMISSION"' });
  return z.NEVER;
});

export const roleSchema = z.strictObject(
  {
    title: z.string({ error: 'must be a string' }).optional(),
    description: z.string({ error: 'must be a string' }).optional(),
    permissions: z.array(permission, { error: 'must be a list' }).optional(),
  },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.join(', ')} (expected ${KEYS.join(', ')})`
        : 'expected an object with title, description and permissions',
  },
);
