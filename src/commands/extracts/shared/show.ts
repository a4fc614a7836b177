import type { Extract } from '../../../api/extracts.js';
import type { Context } from '../../../context.js';
import { idText } from '../../../util/json.js';

/** An extract's detail view; --json prints what the service sent. */
export async function showExtract(ctx: Context, e: Extract): Promise<void> {
  if (ctx.output.machine) return ctx.output.json(e);
  await ctx.output.object(e, [
    ['id', e.id],
    ['title', e.title],
    ['data source', e.datasource_name],
    ['connection', e.connection_id],
    ['account (embedded id)', e.account_embedded_id],
    ['account entity id', e.account_entity_id],
    ['data table', e.data_table_id],
    [
      'template',
      `${idText(e.template?.id)}${e.template?.title ? ` ${e.template.title}` : ''}${e.template?.is_wide_template ? ' (wide)' : ''}`,
    ],
    ['status', e.status],
    ['paused', e.is_paused ? `yes (${e.pause_reason ?? 'unknown'})` : 'no'],
    ['schedule', e.schedule],
    ['fields', e.template_settings?.fields?.join(', ')],
    ['dynamic fields', e.template_settings?.dynamic_fields?.join(', ')],
    // The date from which history was synced (a read-only field of the answer).
    ['history synced from', e.sync_historical_data ?? ''],
    ['last run', e.last_run_at],
    ...(e.migrated_to_id ? [['migrated to', e.migrated_to_id] as [string, unknown]] : []),
    ...(e.migrated_from_id ? [['migrated from', e.migrated_from_id] as [string, unknown]] : []),
  ]);
}
