import { setLoadPaused } from '../../../api/loads.js';
import type { Context } from '../../../context.js';
import { parseId } from '../../../util/validate.js';

/** `pause` and `unpause`: the same request with the other word. */
export async function setPaused(ctx: Context, id: string, paused: boolean): Promise<void> {
  const loadId = parseId(id, 'load id');
  const ws = ctx.requireWorkspace();
  const api = await ctx.api();
  const l = await setLoadPaused(api, ws, loadId, paused);
  if (ctx.output.machine) ctx.output.json(l);
  else ctx.output.success(paused ? `Load ${loadId} is paused` : `Load ${loadId} is active again`);
}
