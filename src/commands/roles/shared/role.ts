import type { Readable } from 'node:stream';
import type { Context } from '../../../context.js';
import { UsageError } from '../../../errors.js';
import { getPermissionCatalog, type PermissionPair, type Role } from '../../../api/roles.js';
import type { Service } from '../../../api/service.js';
import type { Column } from '../../../output/output.js';
import { checkTitle } from '../../shared/options.js';
import type { CreateOptions, UpdateOptions } from '../command.js';
import { inCatalog, pairText, parsePermission } from '../../../roles/permission.js';

export const kindOf = (r: Role): string => (r.is_system === true ? 'system' : r.is_system === false ? 'custom' : '');

export const roleColumns: Array<Column<Role>> = [
  { header: 'ID', value: (r) => r.id },
  { header: 'TITLE', value: (r) => r.title },
  {
    header: 'KIND',
    // A system role cannot be changed: said in words, with or without colour; scripts get the kind.
    value: (r) => (r.is_system === true ? 'system (read-only)' : kindOf(r)),
    raw: kindOf,
    keep: true,
    style: (t, r, c) => (r.is_system === true ? c.dim(t) : t),
  },
  { header: 'USERS', value: (r) => r.user_count },
  { header: 'PERMISSIONS', value: (r) => r.permissions?.length },
];

interface RoleInput {
  title?: string | undefined;
  description?: string | undefined;
  permissions?: PermissionPair[] | undefined;
}

/** The flags `roles create` and `roles update` share, as their declarations type them. */
type RoleFlags = Pick<CreateOptions & UpdateOptions, 'title' | 'description' | 'permission' | 'file'>;

/** The role from `--file` (JSON or YAML, checked against the role schema), then the flags, which win over it. */
export async function roleInput(opts: RoleFlags, stdin: Readable): Promise<RoleInput> {
  let input: RoleInput = {};
  if (opts.file !== undefined) {
    const { readValidDocument } = await import('../../../util/document.js');
    input = {
      ...(await readValidDocument(opts.file, stdin, '--file', 'role', () =>
        import('./role-schema.js').then((m) => m.roleSchema),
      )),
    };
  }
  if (opts.title !== undefined) input.title = opts.title;
  if (opts.description !== undefined) input.description = opts.description;
  const flags = opts.permission ?? [];
  if (flags.length > 0) input.permissions = flags.map((p) => parsePermission(p, '--permission'));
  if (input.title !== undefined) checkTitle(input.title);
  return input;
}

/**
 * Every pair must come from the catalog: checked before the write, so a typo is exit 2 with
 * nothing changed. A pair that differs only in letter case takes the catalog's spelling.
 */
export async function checkAgainstCatalog(api: Service, pairs: PermissionPair[]): Promise<PermissionPair[]> {
  const catalog = await getPermissionCatalog(api);
  const problems: string[] = [];
  const out: PermissionPair[] = [];
  for (const pair of pairs) {
    const found = inCatalog(catalog, pair);
    if (!found.layer) {
      const layers = catalog.map((l) => l.layer ?? '?').join(', ');
      problems.push(`${pairText(pair)}: no layer ${pair.layer} (layers: ${layers})`);
      continue;
    }
    if (!found.pair) {
      const names = (found.layer.permissions ?? []).map((p) => p.permission ?? '?').join(', ');
      problems.push(
        `${pairText(pair)}: layer ${found.layer.layer} has no permission ${pair.permission} (it has: ${names})`,
      );
      continue;
    }
    const known = found.pair;
    if (!out.some((p) => p.layer === known.layer && p.permission === known.permission)) out.push(known);
  }
  if (problems.length > 0)
    throw new UsageError(`--permission: not in the permission catalog:\n  ${problems.join('\n  ')}`);
  return out;
}

export async function showRole(ctx: Context, role: Role): Promise<void> {
  if (ctx.output.machine) return ctx.output.json(role);
  await ctx.output.object(role, [
    ['id', role.id],
    ['title', role.title],
    ['description', role.description],
    ['kind', role.is_system ? 'system (read-only)' : kindOf(role)],
    ['users', role.user_count],
    ['permissions', (role.permissions ?? []).map(pairText).join(', ')],
  ]);
}
