import { listTemplates, type ExtractTemplate } from '../../api/extract-templates.js';
import type { Context } from '../../context.js';
import { limitOf, parseName } from '../shared/options.js';
import { suggestingDataSource } from '../shared/datasource-names.js';
import type { ListOptions } from './command.js';

export async function runList(opts: ListOptions, ctx: Context): Promise<void> {
  const ds = parseName(opts.dataSource, '--data-source');
  const limit = limitOf(opts.limit);
  const ws = ctx.requireWorkspace();
  const api = await ctx.api();
  await suggestingDataSource(api, ws, ds, () =>
    ctx.output.list(
      listTemplates(api, ws, ds, { limit }),
      [
        { header: 'ID', value: (t: ExtractTemplate) => t.id },
        { header: 'TITLE', value: (t: ExtractTemplate) => t.title },
        { header: 'WIDE', value: (t: ExtractTemplate) => t.is_wide_template },
        { header: 'GLOBAL', value: (t: ExtractTemplate) => t.is_global },
        { header: 'SQL NAME', value: (t: ExtractTemplate) => t.sql_name },
      ],
      { empty: `No ${ds} extract templates.` },
    ),
  );
}
