import { patchExtract } from '../../api/extracts.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { parseId } from '../../util/validate.js';
import { checkTitle } from '../shared/options.js';
import { scheduleOf } from '../shared/schedule.js';
import { settingsFrom } from '../shared/template-settings.js';
import type { UpdateOptions } from './command.js';
import { showExtract } from './shared/show.js';

/** A partial update (PATCH): only what the flags name changes. */
export async function runUpdate(opts: UpdateOptions, ctx: Context): Promise<void> {
  const extractId = parseId(opts.args[0], 'extract id');
  const title = opts.title === undefined ? undefined : checkTitle(opts.title);
  const schedule = scheduleOf(opts.schedule);
  const settings = await settingsFrom(ctx, opts);
  if (title === undefined && schedule === undefined && settings === undefined) {
    throw new UsageError(
      'nothing to update: pass --title, --schedule, --fields, --dynamic-fields, --additional-params, --custom-filters, --sync-from-date or --settings-file',
    );
  }
  const ws = ctx.requireWorkspace();
  const api = await ctx.api();
  const e = await patchExtract(api, ws, extractId, { title, schedule, template_settings: settings });
  if (!ctx.output.machine) ctx.output.success(`Updated extract ${extractId}`);
  await showExtract(ctx, e);
}
