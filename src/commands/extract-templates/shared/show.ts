import type { ExtractTemplate, Field } from '../../../api/extract-templates.js';
import type { Context } from '../../../context.js';
import type { Column } from '../../../output/output.js';
import { FIELD_COLUMNS, showFieldTable } from '../../shared/field-table.js';

const fieldColumns: Array<Column<Field>> = [...FIELD_COLUMNS, { header: 'DYNAMIC', value: (f) => f.is_dynamic }];

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
  await showFieldTable(ctx, fieldColumns, t.fields);
}
