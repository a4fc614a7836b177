import { checkExtractions } from '../../api/recipes.js';
import type { Context } from '../../context.js';
import { idText } from '../../util/json.js';
import { parseId } from '../../util/validate.js';
import type { ExtractionsOptions } from './command.js';

export async function runExtractions(opts: ExtractionsOptions, ctx: Context): Promise<void> {
  const recipeId = parseId(opts.args[0], 'recipe id');
  const ws = ctx.requireWorkspace();
  const api = await ctx.api();
  const check = await checkExtractions(api, ws, recipeId);
  if (ctx.output.machine) {
    ctx.output.json(check);
    return;
  }
  const tables = check.tables ?? [];
  if (tables.length === 0) ctx.output.info('The last build used no extractions (or the recipe was never built).');
  else {
    await ctx.output.table(
      [
        { header: 'DATA SOURCE', value: (t: Record<string, unknown>) => t.data_source },
        { header: 'TABLE', value: (t) => t.table },
        {
          header: 'EXISTS',
          value: (t) => t.table_exists,
          style: (text, _t, c) => (text === 'yes' ? c.green(text) : c.yellow(text)),
        },
        {
          header: 'EXTRACTIONS',
          value: (t) => (Array.isArray(t.extraction_ids) ? t.extraction_ids.map(idText).join(', ') : ''),
        },
      ],
      tables,
    );
  }
  ctx.output.info(check.all_tables_exist ? 'All tables exist.' : 'Some tables do not exist yet.');
}
