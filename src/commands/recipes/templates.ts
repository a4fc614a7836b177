import { listTemplates } from '../../api/recipes.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { limitOf } from '../shared/options.js';
import type { TemplatesOptions } from './command.js';
import { templateColumns } from './shared/view.js';

export async function runTemplates(opts: TemplatesOptions, ctx: Context): Promise<void> {
  const ws = ctx.requireWorkspace();
  const limit = limitOf(opts.limit);
  // The service rejects a blank search (docs/contract-rules.md, Recipe templates, v3.1 list).
  if (opts.search !== undefined && opts.search.trim() === '') throw new UsageError('--search must not be blank');
  const api = await ctx.api();
  await ctx.output.list(listTemplates(api, ws, { search: opts.search }, { limit }), templateColumns, {
    empty: 'No templates match.',
  });
}
