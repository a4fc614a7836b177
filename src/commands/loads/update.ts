import { getLoad, putLoad } from '../../api/loads.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { idText } from '../../util/json.js';
import { parseId } from '../../util/validate.js';
import { checkTitle } from '../shared/options.js';
import { scheduleOf } from '../shared/schedule.js';
import type { UpdateOptions } from './command.js';
import { showLoad } from './shared/show.js';

/** PUT takes the whole load: the current one is read and the flags change it. */
export async function runUpdate(opts: UpdateOptions, ctx: Context): Promise<void> {
  const loadId = parseId(opts.args[0], 'load id');
  const title = opts.title === undefined ? undefined : checkTitle(opts.title);
  const tableId = opts.table === undefined ? undefined : parseId(opts.table, '--table');
  const dcId =
    opts.destinationConnection === undefined
      ? undefined
      : parseId(opts.destinationConnection, '--destination-connection');
  const schedule = scheduleOf(opts.schedule);
  if ([title, tableId, dcId, schedule].every((v) => v === undefined)) {
    throw new UsageError('nothing to update: pass --title, --table, --destination-connection or --schedule');
  }
  const ws = ctx.requireWorkspace();
  const api = await ctx.api();
  const current = await getLoad(api, ws, loadId);
  const l = await putLoad(api, ws, loadId, {
    title: title ?? String(current.title ?? ''),
    data_table_id: tableId ?? idText(current.data_table_id),
    destination_connection_id: dcId ?? idText(current.destination_connection_id),
    schedule: schedule ?? String(current.schedule ?? 'daily'),
  });
  if (!ctx.output.machine) ctx.output.success(`Updated load ${loadId}`);
  await showLoad(ctx, l);
}
