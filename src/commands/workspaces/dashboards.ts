import { listDashboards } from '../../api/workspaces.js';
import type { Context } from '../../context.js';
import { parseId } from '../../util/validate.js';
import { limitOf } from '../shared/options.js';
import type { DashboardsOptions } from './command.js';

export async function runDashboards(opts: DashboardsOptions, ctx: Context): Promise<void> {
  const wsId = parseId(opts.args[0], 'workspace id');
  const limit = limitOf(opts.limit);
  const api = await ctx.api();
  await ctx.output.list(
    listDashboards(api, wsId, { limit }),
    [
      { header: 'ID', value: (d) => d.id },
      { header: 'TITLE', value: (d) => d.title },
      { header: 'TYPE', value: (d) => d.type },
    ],
    { empty: 'No DATA dashboards with enabled recipes in this workspace.' },
  );
}
