import { updateWorkspace } from '../../api/workspaces.js';
import type { Context } from '../../context.js';
import { parseId } from '../../util/validate.js';
import { checkTitle } from '../shared/options.js';
import type { UpdateOptions } from './command.js';

export async function runUpdate(opts: UpdateOptions, ctx: Context): Promise<void> {
  const wsId = parseId(opts.args[0], 'workspace id');
  const title = checkTitle(opts.title);
  const api = await ctx.api();
  const ws = await updateWorkspace(api, wsId, title);
  if (ctx.output.machine) ctx.output.json(ws);
  else ctx.output.success(`Workspace ${wsId} is now "${ws?.title ?? title}"`);
}
