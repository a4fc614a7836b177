import type { Readable } from 'node:stream';
import type { Context } from '../../context.js';
import { NotConfirmedError, UsageError } from '../../errors.js';
import { readDocument } from '../../util/document.js';
import { idText } from '../../util/json.js';
import { parseId } from '../../util/validate.js';
import {
  createRole, deleteRole, getPermissionCatalog, getRole, listRoleUsers, listRoles, updateRole,
  type CatalogLayer, type PermissionPair, type Role, type RoleUser, type RoleWrite,
} from '../../api/roles.js';
import type { Service } from '../../api/service.js';
import type { Column } from '../../output/output.js';
import type { Opts } from '../shared/app.js';
import { confirmOrRequireYes } from '../shared/confirm.js';
import { checkTitle, limitOf } from '../shared/options.js';

const kindOf = (r: Role): string => (r.is_system === true ? 'system' : r.is_system === false ? 'custom' : '');
const pairText = (p: PermissionPair): string => `${p.layer}:${p.permission}`;

const roleColumns: Array<Column<Role>> = [
  { header: 'ID', value: (r) => r.id },
  { header: 'TITLE', value: (r) => r.title },
  { header: 'KIND', value: kindOf, style: (t, _r, c) => (t === 'system' ? c.dim(`${t} (read-only)`) : t) },
  { header: 'USERS', value: (r) => r.user_count },
  { header: 'PERMISSIONS', value: (r) => r.permissions?.length },
];

/** `LAYER:PERMISSION` (or `LAYER.PERMISSION`, as the contract writes `EXTRACT.CREATE`). */
export function parsePermission(text: string, where: string): PermissionPair {
  const m = /^\s*([A-Za-z0-9_]+)\s*[:.]\s*([A-Za-z0-9_]+)\s*$/.exec(text);
  if (!m) throw new UsageError(`${where}: "${text}" is not LAYER:PERMISSION (for example EXTRACT:CREATE; \`edp roles permissions\` lists them)`);
  return { layer: m[1]!, permission: m[2]! };
}

interface RoleInput {
  title?: string | undefined;
  description?: string | undefined;
  permissions?: PermissionPair[] | undefined;
}

/** A role from `--file` (JSON or YAML): `title`, `description`, `permissions` as pairs or `LAYER:PERMISSION` strings. */
async function readRoleFile(file: string, stdin: Readable): Promise<RoleInput> {
  const doc = await readDocument(file, stdin, '--file');
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) throw new UsageError(`--file ${file}: expected an object with title, description and permissions`);
  const body = doc as Record<string, unknown>;
  const unknown = Object.keys(body).filter((k) => !['title', 'description', 'permissions'].includes(k));
  if (unknown.length > 0) throw new UsageError(`--file ${file}: unknown key${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} (expected title, description, permissions)`);
  const out: RoleInput = {};
  for (const key of ['title', 'description'] as const) {
    if (body[key] === undefined) continue;
    if (typeof body[key] !== 'string') throw new UsageError(`--file ${file}: ${key} must be a string`);
    out[key] = body[key] as string;
  }
  if (body.permissions !== undefined) {
    if (!Array.isArray(body.permissions)) throw new UsageError(`--file ${file}: permissions must be a list`);
    out.permissions = body.permissions.map((p, i) => {
      const where = `--file ${file}: permissions[${i}]`;
      if (typeof p === 'string') return parsePermission(p, where);
      if (p && typeof p === 'object' && typeof p.layer === 'string' && typeof p.permission === 'string') return { layer: p.layer, permission: p.permission };
      throw new UsageError(`${where} must be {layer, permission} or "LAYER:PERMISSION"`);
    });
  }
  return out;
}

/** Flags win over the file's values. */
async function roleInput(opts: Opts, stdin: Readable): Promise<RoleInput> {
  const input: RoleInput = opts.file ? await readRoleFile(String(opts.file), stdin) : {};
  if (opts.title !== undefined) input.title = opts.title;
  if (opts.description !== undefined) input.description = opts.description;
  const flags = (opts.permission as string[] | undefined) ?? [];
  if (flags.length > 0) input.permissions = flags.map((p) => parsePermission(p, '--permission'));
  if (input.title !== undefined) checkTitle(input.title);
  return input;
}

/**
 * Every pair must come from the catalog: checked before the write, so a typo is exit 2 with
 * nothing changed. A pair that differs only in letter case takes the catalog's spelling.
 */
async function checkAgainstCatalog(api: Service, pairs: PermissionPair[]): Promise<PermissionPair[]> {
  const catalog = await getPermissionCatalog(api);
  const problems: string[] = [];
  const out: PermissionPair[] = [];
  for (const pair of pairs) {
    const layer = catalog.find((l) => l.layer === pair.layer) ?? catalog.find((l) => l.layer.toLowerCase() === pair.layer.toLowerCase());
    if (!layer) {
      problems.push(`${pairText(pair)}: no layer ${pair.layer} (layers: ${catalog.map((l) => l.layer).join(', ')})`);
      continue;
    }
    const perms = layer.permissions ?? [];
    const perm = perms.find((p) => p.permission === pair.permission) ?? perms.find((p) => p.permission.toLowerCase() === pair.permission.toLowerCase());
    if (!perm) {
      problems.push(`${pairText(pair)}: layer ${layer.layer} has no permission ${pair.permission} (it has: ${perms.map((p) => p.permission).join(', ')})`);
      continue;
    }
    if (!out.some((p) => p.layer === layer.layer && p.permission === perm.permission)) out.push({ layer: layer.layer, permission: perm.permission });
  }
  if (problems.length > 0) throw new UsageError(`--permission: not in the permission catalog:\n  ${problems.join('\n  ')}`);
  return out;
}

async function showRole(ctx: Context, role: Role): Promise<void> {
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

export async function runList(ctx: Context, _a: unknown[], opts: Opts): Promise<number> {
  const limit = limitOf(opts.limit);
  const api = await ctx.api();
  await ctx.output.list(listRoles(api, { limit }), roleColumns, { empty: 'No roles.' });
  return 0;
}

export async function runGet(ctx: Context, [id]: unknown[]): Promise<number> {
  const roleId = parseId(id as string, 'role id');
  const api = await ctx.api();
  await showRole(ctx, await getRole(api, roleId));
  return 0;
}

export async function runCreate(ctx: Context, _a: unknown[], opts: Opts): Promise<number> {
  const input = await roleInput(opts, ctx.io.stdin);
  if (input.title === undefined) throw new UsageError('a role needs a title: pass --title T (or title in --file)');
  const api = await ctx.api();
  const body: RoleWrite = { title: input.title, description: input.description, permissions: await checkAgainstCatalog(api, input.permissions ?? []) };
  const role = await createRole(api, body);
  if (!ctx.output.machine) ctx.output.success(`Created role ${idText(role.id)} "${role.title}"`);
  await showRole(ctx, role);
  return 0;
}

const samePair = (a: PermissionPair, b: PermissionPair) => a.layer.toLowerCase() === b.layer.toLowerCase() && a.permission.toLowerCase() === b.permission.toLowerCase();

/**
 * The role's permissions after `--add-permission` and `--remove-permission`: read, merged, and
 * sent whole (the PATCH takes the complete set; a concurrent change between the read and the
 * write is overwritten, as with any read-modify-write of this API).
 */
function mergePermissions(ctx: Context, current: PermissionPair[], add: PermissionPair[], remove: PermissionPair[]): PermissionPair[] {
  const notHeld = remove.filter((r) => !current.some((c) => samePair(c, r)));
  if (notHeld.length > 0) ctx.output.warn(`the role does not have ${notHeld.map(pairText).join(', ')}; nothing to remove there`);
  const kept = current.filter((c) => !remove.some((r) => samePair(c, r)));
  for (const a of add) if (!kept.some((k) => samePair(k, a))) kept.push(a);
  return kept;
}

/**
 * Replacing the whole set removes what it does not name: shown first, and confirmed at a
 * terminal; elsewhere `--yes` is required (cli-design: never prompt without a terminal).
 */
async function confirmRemoval(ctx: Context, roleId: string, removed: PermissionPair[], yes: boolean | undefined): Promise<void> {
  if (removed.length === 0 || yes) return;
  const list = removed.map(pairText).join(', ');
  if (!ctx.interactive) {
    throw new UsageError(
      `--permission replaces role ${roleId}'s whole permission set and would remove ${list}; pass --yes to confirm, or change the set with --add-permission / --remove-permission (no prompt: not a terminal, CI set, or --no-input)`,
    );
  }
  ctx.output.warn(`--permission replaces the whole set; role ${roleId} loses ${list}`);
  const { confirm } = await ctx.prompts();
  const ok = await confirm({ message: `Remove ${list} from role ${roleId}?`, default: false }, ctx.promptContext());
  if (!ok) throw new NotConfirmedError();
}

export async function runUpdate(ctx: Context, [id]: unknown[], opts: Opts): Promise<number> {
  const roleId = parseId(id as string, 'role id');
  const input = await roleInput(opts, ctx.io.stdin);
  const add = ((opts.addPermission as string[] | undefined) ?? []).map((p) => parsePermission(p, '--add-permission'));
  const remove = ((opts.removePermission as string[] | undefined) ?? []).map((p) => parsePermission(p, '--remove-permission'));
  const editing = add.length > 0 || remove.length > 0;
  if (editing && input.permissions !== undefined) {
    throw new UsageError('--permission (or permissions in --file) gives the whole set; --add-permission and --remove-permission change the current one: use one or the other');
  }
  const clash = add.filter((a) => remove.some((r) => samePair(a, r)));
  if (clash.length > 0) throw new UsageError(`--add-permission and --remove-permission both name ${clash.map(pairText).join(', ')}`);
  if (input.title === undefined && input.description === undefined && input.permissions === undefined && !editing) {
    throw new UsageError('nothing to change: pass --title, --description, --add-permission, --remove-permission, --permission or --file');
  }
  const api = await ctx.api();
  const body: RoleWrite = { ...input };
  if (editing) {
    const current = (await getRole(api, roleId)).permissions ?? [];
    body.permissions = mergePermissions(ctx, current, await checkAgainstCatalog(api, add), remove);
  } else if (input.permissions !== undefined) {
    const wanted = await checkAgainstCatalog(api, input.permissions);
    const role = await getRole(api, roleId);
    const current = role.permissions ?? [];
    // A system role is refused by the service (403) whatever the set: nothing to confirm.
    if (role.is_system !== true) await confirmRemoval(ctx, roleId, current.filter((c) => !wanted.some((w) => samePair(c, w))), opts.yes);
    body.permissions = wanted;
  }
  const role = await updateRole(api, roleId, body);
  if (!ctx.output.machine) ctx.output.success(`Updated role ${roleId}`);
  await showRole(ctx, role);
  return 0;
}

export async function runDelete(ctx: Context, [id]: unknown[], opts: Opts): Promise<number> {
  const roleId = parseId(id as string, 'role id');
  await confirmOrRequireYes(ctx, opts.yes, `deleting role ${roleId}`, `Delete role ${roleId}? Its users move to the Viewer role.`);
  const api = await ctx.api();
  const result = await deleteRole(api, roleId);
  if (ctx.output.machine) ctx.output.json(result);
  else {
    const n = result.reassigned_users_count;
    ctx.output.success(`Deleted role ${roleId}${n === undefined ? '' : `; ${n} user${n === 1 ? '' : 's'} moved to Viewer`}`);
  }
  return 0;
}

export async function runUsers(ctx: Context, [id]: unknown[], opts: Opts): Promise<number> {
  const roleId = parseId(id as string, 'role id');
  const limit = limitOf(opts.limit);
  const api = await ctx.api();
  const columns: Array<Column<RoleUser>> = [
    { header: 'ID', value: (u) => u.id },
    { header: 'EMAIL', value: (u) => u.email },
    { header: 'NAME', value: (u) => [u.first_name, u.last_name].filter(Boolean).join(' ') },
    { header: 'ACTIVE', value: (u) => u.is_active },
    { header: 'WORKSPACES', value: (u) => (u.workspaces ?? []).map((w) => (w.title ? `${idText(w.id)} ${w.title}` : idText(w.id))).join(', ') },
  ];
  await ctx.output.list(listRoleUsers(api, roleId, { limit }), columns, { empty: 'No users have this role.' });
  return 0;
}

export async function runPermissions(ctx: Context): Promise<number> {
  const api = await ctx.api();
  const catalog = await getPermissionCatalog(api);
  if (ctx.output.flags.json) {
    ctx.output.json(catalog);
    return 0;
  }
  if (ctx.output.flags.ndjson) {
    for (const layer of catalog) ctx.output.ndjson(layer);
    return 0;
  }
  type Row = { layer: CatalogLayer; permission: CatalogLayer['permissions'][number] };
  const rows: Row[] = catalog.flatMap((layer) => (layer.permissions ?? []).map((permission) => ({ layer, permission })));
  await ctx.output.list(
    rows,
    [
      { header: 'PERMISSION', value: (r) => `${r.layer.layer}:${r.permission.permission}` },
      { header: 'TITLE', value: (r) => r.permission.title },
      { header: 'DESCRIPTION', value: (r) => r.permission.description },
    ],
    { empty: 'The permission catalog is empty.' },
  );
  return 0;
}
