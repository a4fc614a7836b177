import { listRoleUsers, type RoleUser } from '../../api/roles.js';
import type { Context } from '../../context.js';
import type { Column } from '../../output/output.js';
import { idText } from '../../util/json.js';
import { parseId } from '../../util/validate.js';
import { limitOf } from '../shared/options.js';
import type { UsersOptions } from './command.js';

const columns: Array<Column<RoleUser>> = [
  { header: 'ID', value: (u) => u.id },
  { header: 'EMAIL', value: (u) => u.email },
  { header: 'NAME', value: (u) => [u.first_name, u.last_name].filter(Boolean).join(' ') },
  { header: 'ACTIVE', value: (u) => u.is_active },
  {
    header: 'WORKSPACES',
    value: (u) => (u.workspaces ?? []).map((w) => (w.title ? `${idText(w.id)} ${w.title}` : idText(w.id))).join(', '),
  },
];

export async function runUsers(opts: UsersOptions, ctx: Context): Promise<void> {
  const roleId = parseId(opts.args[0], 'role id');
  const limit = limitOf(opts.limit);
  const api = await ctx.api();
  await ctx.output.list(listRoleUsers(api, roleId, { limit }), columns, { empty: 'No users have this role.' });
}
