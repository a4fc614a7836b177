import { migrateWide } from '../../api/extracts.js';
import type { Context } from '../../context.js';
import { idText } from '../../util/json.js';
import { parseId } from '../../util/validate.js';
import { settingsFrom } from '../shared/template-settings.js';
import type { MigrateWideOptions } from './command.js';
import { showExtract } from './shared/show.js';

/**
 * A new extract on a wide template; the original is paused and its data stays queryable.
 * Settings not given are copied from the original by the service (docs/contract-rules.md,
 * Extracts, migrate-wide).
 */
export async function runMigrateWide(opts: MigrateWideOptions, ctx: Context): Promise<void> {
  const extractId = parseId(opts.args[0], 'extract id');
  const templateId = opts.template === undefined ? undefined : parseId(opts.template, '--template');
  const settings = (await settingsFrom(ctx, opts)) ?? {};
  const ws = ctx.requireWorkspace();
  const api = await ctx.api();
  const e = await migrateWide(api, ws, extractId, settings, templateId);
  if (!ctx.output.machine) {
    ctx.output.success(
      `Migrated extract ${extractId} to wide extract ${idText(e.id)} (data table ${idText(e.data_table_id)}); the original is paused and its data stays queryable`,
    );
  }
  await showExtract(ctx, e);
}
