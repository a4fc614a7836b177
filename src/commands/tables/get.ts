import { getTable } from '../../api/tables.js';
import type { Context } from '../../context.js';
import { parseId } from '../../util/validate.js';
import type { GetOptions } from './command.js';
import { showTable } from './shared/show.js';

export async function runGet(opts: GetOptions, ctx: Context): Promise<void> {
  const tableId = parseId(opts.args[0], 'data table id');
  const ws = ctx.requireWorkspace();
  const api = await ctx.api();
  await showTable(ctx, await getTable(api, ws, tableId));
}
