import type { DataTable, TableField } from '../../../api/tables.js';
import type { Context } from '../../../context.js';

export const fieldColumns = [
  { header: 'NAME', value: (f: TableField) => f.name },
  { header: 'FORMAT', value: (f: TableField) => f.format },
  { header: 'TYPE', value: (f: TableField) => f.user_type },
  { header: 'SELECTED', value: (f: TableField) => f.is_selected },
  { header: 'SYSTEM', value: (f: TableField) => f.is_system },
];

/** A table's detail view, then its fields as a table on a terminal; --json prints what the service sent. */
export async function showTable(ctx: Context, t: DataTable): Promise<void> {
  if (ctx.output.machine) return ctx.output.json(t);
  await ctx.output.object(t, [
    ['id', t.id],
    ['title', t.title],
    ['sql name', t.sql_name],
    ['data source', t.datasource_name],
    ['rows', t.rows_count],
    ['selected fields', t.selected_fields?.join(', ')],
  ]);
  // Piped, the fields are one line of the detail view already (compact JSON).
  if (t.fields && ctx.output.stdoutIsTTY) {
    ctx.output.line();
    await ctx.output.table(fieldColumns, t.fields);
  }
}
