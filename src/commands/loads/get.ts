import { getLoad } from '../../api/loads.js';
import type { Context } from '../../context.js';
import { parseId } from '../../util/validate.js';
import type { GetOptions } from './command.js';
import { showLoad } from './shared/show.js';

export async function runGet(opts: GetOptions, ctx: Context): Promise<void> {
  const loadId = parseId(opts.args[0], 'load id');
  const ws = ctx.requireWorkspace();
  const api = await ctx.api();
  await showLoad(ctx, await getLoad(api, ws, loadId));
}
