import type { DataTable, TableField } from '../../../api/tables.js';
import type { Context } from '../../../context.js';
import type { Column } from '../../../output/output.js';
import { FIELD_COLUMNS, showFieldTable } from '../../shared/field-table.js';

export const fieldColumns: Array<Column<TableField>> = [
  ...FIELD_COLUMNS,
  { header: 'SELECTED', value: (f) => f.is_selected },
  { header: 'SYSTEM', value: (f) => f.is_system },
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
  await showFieldTable(ctx, fieldColumns, t.fields);
}
