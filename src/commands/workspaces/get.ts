import { getWorkspace } from '../../api/workspaces.js';
import type { Context } from '../../context.js';
import { parseId } from '../../util/validate.js';
import type { GetOptions } from './command.js';

export async function runGet(opts: GetOptions, ctx: Context): Promise<void> {
  const wsId = parseId(opts.args[0], 'workspace id');
  const api = await ctx.api();
  await ctx.output.object(await getWorkspace(api, wsId));
}
