import type { ExtractTemplate, Field } from '../../../api/extract-templates.js';
import type { Context } from '../../../context.js';

const fieldColumns = [
  { header: 'NAME', value: (f: Field) => f.name },
  { header: 'FORMAT', value: (f: Field) => f.format },
  { header: 'TYPE', value: (f: Field) => f.user_type },
  { header: 'DYNAMIC', value: (f: Field) => f.is_dynamic },
];

/** A template's detail view, then its fields as a table on a terminal; --json prints what the service sent. */
export async function showTemplate(ctx: Context, t: ExtractTemplate): Promise<void> {
  if (ctx.output.machine) return ctx.output.json(t);
  await ctx.output.object(t, [
    ['id', t.id],
    ['title', t.title],
    ['data source', t.datasource_name],
    ['sql name', t.sql_name],
    ['wide', t.is_wide_template],
    ['parent', t.parent_id],
  ]);
  // Piped, the fields are one line of the detail view already (compact JSON).
  if (t.fields && ctx.output.stdoutIsTTY) {
    ctx.output.line();
    await ctx.output.table(fieldColumns, t.fields);
  }
}
