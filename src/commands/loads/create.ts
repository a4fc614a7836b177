import { createLoad } from '../../api/loads.js';
import type { Context } from '../../context.js';
import { idText } from '../../util/json.js';
import { parseId } from '../../util/validate.js';
import { checkTitle } from '../shared/options.js';
import { scheduleOf } from '../shared/schedule.js';
import type { CreateOptions } from './command.js';
import { showLoad } from './shared/show.js';

export async function runCreate(opts: CreateOptions, ctx: Context): Promise<void> {
  const tableId = parseId(opts.table, '--table');
  const dcId = parseId(opts.destinationConnection, '--destination-connection');
  const title = opts.title === undefined ? undefined : checkTitle(opts.title);
  const schedule = scheduleOf(opts.schedule);
  const ws = ctx.requireWorkspace();
  const api = await ctx.api();
  const l = await createLoad(api, ws, { data_table_id: tableId, destination_connection_id: dcId, title, schedule });
  if (!ctx.output.machine) ctx.output.success(`Created load ${idText(l.id)}`);
  await showLoad(ctx, l);
}
