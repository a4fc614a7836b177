import { getTemplate, listTemplates } from '../../api/recipes.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { parseId } from '../../util/validate.js';
import type { Opts } from '../shared/app.js';
import { limitOf } from '../shared/options.js';
import { showTemplate, templateColumns } from './view.js';

export async function runTemplates(ctx: Context, _a: unknown[], opts: Opts): Promise<number> {
  const ws = ctx.requireWorkspace();
  const limit = limitOf(opts.limit);
  // The service rejects a blank search (contract, v3.1 templates list).
  if (opts.search !== undefined && String(opts.search).trim() === '') throw new UsageError('--search must not be blank');
  const api = await ctx.api();
  await ctx.output.list(listTemplates(api, ws, { search: opts.search }, { limit }), templateColumns, { empty: 'No templates match.' });
  return 0;
}

export async function runTemplate(ctx: Context, [id]: unknown[]): Promise<number> {
  const templateId = parseId(id as string, 'template id');
  const ws = ctx.requireWorkspace();
  const api = await ctx.api();
  const template = await getTemplate(api, ws, templateId);
  if (ctx.output.machine) ctx.output.json(template);
  else showTemplate(ctx.output, template);
  return 0;
}
