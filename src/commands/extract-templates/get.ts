import { getCompactTemplate, getTemplate } from '../../api/extract-templates.js';
import type { Context } from '../../context.js';
import { parseId } from '../../util/validate.js';
import { parseName } from '../shared/options.js';
import type { GetOptions } from './command.js';
import { showTemplate } from './shared/show.js';

/** Without --data-source the compact form (by id) tells the data source of the detail. */
export async function runGet(opts: GetOptions, ctx: Context): Promise<void> {
  const templateId = parseId(opts.args[0], 'template id');
  const ds = opts.dataSource === undefined ? undefined : parseName(opts.dataSource, '--data-source');
  const ws = ctx.requireWorkspace();
  const api = await ctx.api();
  if (opts.compact) {
    await ctx.output.object(await getCompactTemplate(api, ws, templateId));
    return;
  }
  const source = ds ?? (await getCompactTemplate(api, ws, templateId)).datasource_name;
  await showTemplate(ctx, await getTemplate(api, ws, source, templateId));
}
