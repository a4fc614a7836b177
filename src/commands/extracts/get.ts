import { getExtract } from '../../api/extracts.js';
import type { Context } from '../../context.js';
import { parseId } from '../../util/validate.js';
import type { GetOptions } from './command.js';
import { showExtract } from './shared/show.js';

export async function runGet(opts: GetOptions, ctx: Context): Promise<void> {
  const extractId = parseId(opts.args[0], 'extract id');
  const ws = ctx.requireWorkspace();
  const api = await ctx.api();
  await showExtract(ctx, await getExtract(api, ws, extractId));
}
