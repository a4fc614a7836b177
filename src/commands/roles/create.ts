import { createRole } from '../../api/roles.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { idText } from '../../util/json.js';
import type { CreateOptions } from './command.js';
import { checkAgainstCatalog, roleInput, showRole } from './shared/role.js';

export async function runCreate(opts: CreateOptions, ctx: Context): Promise<void> {
  const input = await roleInput(opts, ctx.io.stdin);
  if (input.title === undefined) throw new UsageError('a role needs a title: pass --title T (or title in --file)');
  const api = await ctx.api();
  const body = {
    title: input.title,
    description: input.description,
    permissions: await checkAgainstCatalog(api, input.permissions ?? []),
  };
  const role = await createRole(api, body);
  if (!ctx.output.machine) ctx.output.success(`Created role ${idText(role.id)} "${role.title}"`);
  await showRole(ctx, role);
}
