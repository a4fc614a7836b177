import { createWorkspace } from '../../api/workspaces.js';
import type { Context } from '../../context.js';
import { checkTitle } from '../shared/options.js';
import type { CreateOptions } from './command.js';

export async function runCreate(opts: CreateOptions, ctx: Context): Promise<void> {
  const title = checkTitle(opts.title);
  const api = await ctx.api();
  const ws = await createWorkspace(api, title);
  if (ctx.output.machine) ctx.output.json(ws);
  else {
    ctx.output.success(`Created workspace ${ws.id}`);
    await ctx.output.object(ws);
  }
}
