import { deleteLoad } from '../../api/loads.js';
import type { Context } from '../../context.js';
import { jsonInteger } from '../../util/json.js';
import { parseId } from '../../util/validate.js';
import { confirmOrRequireYes } from '../shared/confirm.js';
import type { DeleteOptions } from './command.js';

export async function runDelete(opts: DeleteOptions, ctx: Context): Promise<void> {
  const loadId = parseId(opts.args[0], 'load id');
  const ws = ctx.requireWorkspace();
  await confirmOrRequireYes(ctx, opts.yes, `deleting load ${loadId}`, `Delete load ${loadId} in workspace ${ws}?`);
  const api = await ctx.api();
  await deleteLoad(api, ws, loadId);
  if (ctx.output.machine) ctx.output.json({ id: jsonInteger(loadId), deleted: true });
  else ctx.output.success(`Deleted load ${loadId}`);
}
