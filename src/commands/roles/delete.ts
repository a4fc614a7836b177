import { deleteRole } from '../../api/roles.js';
import type { Context } from '../../context.js';
import { parseId } from '../../util/validate.js';
import { confirmOrRequireYes } from '../shared/confirm.js';
import type { DeleteOptions } from './command.js';

export async function runDelete(opts: DeleteOptions, ctx: Context): Promise<void> {
  const roleId = parseId(opts.args[0], 'role id');
  await confirmOrRequireYes(
    ctx,
    opts.yes,
    `deleting role ${roleId}`,
    `Delete role ${roleId}? Its users move to the Viewer role.`,
  );
  const api = await ctx.api();
  const result = await deleteRole(api, roleId);
  if (ctx.output.machine) ctx.output.json(result);
  else {
    const n = result.reassigned_users_count;
    ctx.output.success(
      `Deleted role ${roleId}${n === undefined ? '' : `; ${n} user${n === 1 ? '' : 's'} moved to Viewer`}`,
    );
  }
}
