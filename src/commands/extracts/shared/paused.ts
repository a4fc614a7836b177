import { setExtractPaused } from '../../../api/extracts.js';
import type { Context } from '../../../context.js';
import { parseId } from '../../../util/validate.js';

/** `pause` and `unpause`: the same request with the other word. */
export async function setPaused(ctx: Context, id: string, paused: boolean): Promise<void> {
  const extractId = parseId(id, 'extract id');
  const ws = ctx.requireWorkspace();
  const api = await ctx.api();
  const e = await setExtractPaused(api, ws, extractId, paused);
  if (ctx.output.machine) ctx.output.json(e);
  else
    ctx.output.success(
      paused
        ? `Extract ${extractId} is paused; it delivers nothing until unpaused`
        : `Extract ${extractId} is unpaused and running`,
    );
}
