import type { Field } from '../../api/extract-templates.js';
import type { Context } from '../../context.js';
import type { Column } from '../../output/output.js';

/** The columns of any field object (a template's, an extract's, a data table's); views add their own. */
export const FIELD_COLUMNS: Array<Column<Field>> = [
  { header: 'NAME', value: (f) => f.name },
  { header: 'FORMAT', value: (f) => f.format },
  { header: 'TYPE', value: (f) => f.user_type },
];

/**
 * A detail view's fields as a table, on a terminal only: piped, they are one line of the
 * detail view already (compact JSON).
 */
export async function showFieldTable<F extends Field>(
  ctx: Context,
  columns: Array<Column<F>>,
  fields: F[] | undefined,
): Promise<void> {
  if (!fields || !ctx.output.stdoutIsTTY) return;
  ctx.output.line();
  await ctx.output.table(columns, fields);
}
