import { createExtract } from '../../api/extracts.js';
import type { Context } from '../../context.js';
import { idText } from '../../util/json.js';
import { parseId } from '../../util/validate.js';
import { checkTitle } from '../shared/options.js';
import { scheduleOf } from '../shared/schedule.js';
import { settingsFrom } from '../shared/template-settings.js';
import type { CreateOptions } from './command.js';
import { showExtract } from './shared/show.js';

export async function runCreate(opts: CreateOptions, ctx: Context): Promise<void> {
  const templateId = parseId(opts.template, '--template');
  const accountId = parseId(opts.account, '--account');
  const dataTableId = opts.table === undefined ? undefined : parseId(opts.table, '--table');
  const title = opts.title === undefined ? undefined : checkTitle(opts.title);
  const schedule = scheduleOf(opts.schedule);
  const settings = await settingsFrom(ctx, opts);
  const ws = ctx.requireWorkspace();
  const api = await ctx.api();
  const e = await createExtract(api, ws, { templateId, accountId, dataTableId, title, schedule, settings });
  if (!ctx.output.machine)
    ctx.output.success(
      `Created extract ${idText(e.id)} into data table ${idText(e.data_table_id)}; its first run has started`,
    );
  await showExtract(ctx, e);
}
