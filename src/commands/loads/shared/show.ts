import type { Load } from '../../../api/loads.js';
import type { Context } from '../../../context.js';
import { idText } from '../../../util/json.js';

/** `completed 2024-01-01..2024-01-31, 120 rows`, or `never`. */
export function lastRunText(l: Load): string {
  const run = l.last_run;
  if (!run) return 'never';
  const range = run.date_from ? ` ${run.date_from}..${run.date_to}` : '';
  return `${String(run.status)}${range}${run.rows !== null && run.rows !== undefined ? `, ${run.rows} rows` : ''}`;
}

/** A load's detail view; --json prints what the service sent. */
export async function showLoad(ctx: Context, l: Load): Promise<void> {
  if (ctx.output.machine) return ctx.output.json(l);
  const run = l.last_run;
  await ctx.output.object(l, [
    ['id', l.id],
    ['title', l.title],
    ['data table', l.data_table_id],
    [
      'destination connection',
      `${idText(l.destination_connection_id)}${l.destination_name ? ` (${String(l.destination_name)})` : ''}`,
    ],
    ['schedule', l.schedule],
    ['status', l.status],
    ['last run', lastRunText(l)],
    ...(run?.file ? [['file', run.file] as [string, unknown]] : []),
    ...(run?.error ? [['error', run.error] as [string, unknown]] : []),
  ]);
}
