import { getTemplate } from '../../api/recipes.js';
import type { Context } from '../../context.js';
import { parseId } from '../../util/validate.js';
import type { TemplateOptions } from './command.js';
import { showTemplate } from './shared/view.js';

export async function runTemplate(opts: TemplateOptions, ctx: Context): Promise<void> {
  const templateId = parseId(opts.args[0], 'template id');
  const ws = ctx.requireWorkspace();
  const api = await ctx.api();
  const template = await getTemplate(api, ws, templateId);
  if (ctx.output.machine) ctx.output.json(template);
  else showTemplate(ctx.output, template);
}
