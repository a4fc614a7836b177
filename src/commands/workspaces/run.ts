import type { Context } from '../../context.js';
import { parseId } from '../../util/validate.js';
import {
  createWorkspace, enableRecipe, getWorkspace, listAgencyRecipes, listDashboards, listWorkspaces, updateWorkspace,
  type Workspace,
} from '../../api/workspaces.js';
import type { Opts } from '../app.js';
import { checkTitle, limitOf } from '../options.js';

const columns = [
  { header: 'ID', value: (w: Workspace) => w.id },
  { header: 'TITLE', value: (w: Workspace) => w.title },
];

export async function runList(ctx: Context, _a: unknown[], opts: Opts): Promise<number> {
  const limit = limitOf(opts);
  const api = await ctx.api();
  await ctx.output.list(listWorkspaces(api, { limit }), columns, { empty: 'No workspaces.' });
  return 0;
}

export async function runGet(ctx: Context, [id]: unknown[]): Promise<number> {
  const wsId = parseId(id as string, 'workspace id');
  const api = await ctx.api();
  await ctx.output.object(await getWorkspace(api, wsId));
  return 0;
}

export async function runCreate(ctx: Context, _a: unknown[], opts: Opts): Promise<number> {
  const title = checkTitle(opts.title);
  const api = await ctx.api();
  const ws = await createWorkspace(api, title);
  if (ctx.output.machine) ctx.output.json(ws);
  else {
    ctx.output.success(`Created workspace ${ws.id}`);
    await ctx.output.object(ws);
  }
  return 0;
}

export async function runUpdate(ctx: Context, [id]: unknown[], opts: Opts): Promise<number> {
  const wsId = parseId(id as string, 'workspace id');
  const title = checkTitle(opts.title);
  const api = await ctx.api();
  const ws = await updateWorkspace(api, wsId, title);
  if (ctx.output.machine) ctx.output.json(ws);
  else ctx.output.success(`Workspace ${wsId} is now "${ws?.title ?? title}"`);
  return 0;
}

export async function runDashboards(ctx: Context, [id]: unknown[], opts: Opts): Promise<number> {
  const wsId = parseId(id as string, 'workspace id');
  const limit = limitOf(opts);
  const api = await ctx.api();
  await ctx.output.list(
    listDashboards(api, wsId, { limit }),
    [
      { header: 'ID', value: (d) => d.id },
      { header: 'TITLE', value: (d) => d.title },
      { header: 'TYPE', value: (d) => d.type },
    ],
    { empty: 'No DATA dashboards with enabled recipes in this workspace.' },
  );
  return 0;
}

export async function runEnableRecipe(ctx: Context, [wsArg, recipeArg]: unknown[]): Promise<number> {
  const wsId = parseId(wsArg as string, 'workspace id');
  const recipeId = parseId(recipeArg as string, 'recipe id');
  const api = await ctx.api();
  await enableRecipe(api, wsId, recipeId);
  if (ctx.output.machine) ctx.output.json({ workspace_id: wsId, recipe_id: recipeId, enabled: true });
  else ctx.output.success(`Enabled recipe ${recipeId} in workspace ${wsId}`);
  return 0;
}

export async function runAgencyRecipes(ctx: Context, _a: unknown[], opts: Opts): Promise<number> {
  const limit = limitOf(opts);
  const api = await ctx.api();
  await ctx.output.list(
    listAgencyRecipes(api, { limit }),
    [
      { header: 'ID', value: (r) => r.id },
      { header: 'TITLE', value: (r) => r.title },
    ],
    { empty: 'No recipes available to the agency.' },
  );
  return 0;
}
