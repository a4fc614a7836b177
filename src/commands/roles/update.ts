import { getRole, updateRole, type PermissionPair, type RoleWrite } from '../../api/roles.js';
import type { Context } from '../../context.js';
import { NotConfirmedError, UsageError } from '../../errors.js';
import { parseId } from '../../util/validate.js';
import type { UpdateOptions } from './command.js';
import { pairText, parsePermission } from '../../roles/permission.js';
import { checkAgainstCatalog, roleInput, showRole } from './shared/role.js';

const samePair = (a: PermissionPair, b: PermissionPair) =>
  a.layer.toLowerCase() === b.layer.toLowerCase() && a.permission.toLowerCase() === b.permission.toLowerCase();

/**
 * The role's permissions after `--add-permission` and `--remove-permission`: read, merged, and
 * sent whole (the PATCH takes the complete set; a concurrent change between the read and the
 * write is overwritten, as with any read-modify-write of this API).
 */
function mergePermissions(
  ctx: Context,
  current: PermissionPair[],
  add: PermissionPair[],
  remove: PermissionPair[],
): PermissionPair[] {
  const notHeld = remove.filter((r) => !current.some((c) => samePair(c, r)));
  if (notHeld.length > 0)
    ctx.output.warn(`the role does not have ${notHeld.map(pairText).join(', ')}; nothing to remove there`);
  const kept = current.filter((c) => !remove.some((r) => samePair(c, r)));
  for (const a of add) if (!kept.some((k) => samePair(k, a))) kept.push(a);
  return kept;
}

/**
 * Replacing the whole set removes what it does not name: shown first, and confirmed at a
 * terminal; elsewhere `--yes` is required (no prompt off a terminal).
 */
async function confirmRemoval(
  ctx: Context,
  roleId: string,
  removed: PermissionPair[],
  yes: boolean | undefined,
): Promise<void> {
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

export async function runUpdate(opts: UpdateOptions, ctx: Context): Promise<void> {
  const roleId = parseId(opts.args[0], 'role id');
  const input = await roleInput(opts, ctx.io.stdin);
  const add = (opts.addPermission ?? []).map((p) => parsePermission(p, '--add-permission'));
  const remove = (opts.removePermission ?? []).map((p) => parsePermission(p, '--remove-permission'));
  const editing = add.length > 0 || remove.length > 0;
  if (editing && input.permissions !== undefined) {
    throw new UsageError(
      '--permission (or permissions in --file) gives the whole set; --add-permission and --remove-permission change the current one: use one or the other',
    );
  }
  const clash = add.filter((a) => remove.some((r) => samePair(a, r)));
  if (clash.length > 0)
    throw new UsageError(`--add-permission and --remove-permission both name ${clash.map(pairText).join(', ')}`);
  if (input.title === undefined && input.description === undefined && input.permissions === undefined && !editing) {
    throw new UsageError(
      'nothing to change: pass --title, --description, --add-permission, --remove-permission, --permission or --file',
    );
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
    if (role.is_system !== true)
      await confirmRemoval(
        ctx,
        roleId,
        current.filter((c) => !wanted.some((w) => samePair(c, w))),
        opts.yes,
      );
    body.permissions = wanted;
  }
  const role = await updateRole(api, roleId, body);
  if (!ctx.output.machine) ctx.output.success(`Updated role ${roleId}`);
  await showRole(ctx, role);
}
