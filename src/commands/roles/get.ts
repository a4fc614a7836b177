import { getRole } from '../../api/roles.js';
import type { Context } from '../../context.js';
import { parseId } from '../../util/validate.js';
import type { GetOptions } from './command.js';
import { showRole } from './shared/role.js';

export async function runGet(opts: GetOptions, ctx: Context): Promise<void> {
  const roleId = parseId(opts.args[0], 'role id');
  const api = await ctx.api();
  await showRole(ctx, await getRole(api, roleId));
}
