import { getExtract, runExtract } from '../../api/extracts.js';
import type { Context } from '../../context.js';
import { ExitError } from '../../errors.js';
import { idText } from '../../util/json.js';
import { parseId } from '../../util/validate.js';
import { bulkForm, dataSourcesOf, idWords, runBulk } from '../shared/bulk.js';
import { runWaitOf, waitForRun } from '../shared/poll.js';
import type { RunOptions } from './command.js';
import { showExtract } from './shared/show.js';

export async function runRun(opts: RunOptions, ctx: Context): Promise<void> {
  const ids = idWords(opts.args[0], 'extract id');
  if (bulkForm(ctx, opts, ids.length === 1, opts.dataSource !== undefined))
    return runBulk(ctx, opts, {
      action: 'extracts.run',
      ids,
      selection: { dataSources: dataSourcesOf(opts.dataSource) },
      refused: [opts.wait && '--wait'],
      refusedWhy: `follow runs in bulk with \`${ctx.hint('extracts', 'list')}\``,
    });
  const extractId = parseId(opts.args[0][0], 'extract id');
  const wait = runWaitOf(ctx, opts);
  const ws = ctx.requireWorkspace();
  const api = await ctx.api();
  const started = await runExtract(api, ws, extractId);
  if (!wait) {
    if (ctx.output.machine) ctx.output.json(started);
    else
      ctx.output.success(
        `Extract ${extractId} is running; follow it with \`${ctx.hint('extracts', 'get', extractId)}\` or pass --wait`,
      );
    return;
  }
  const e = await waitForRun(
    ctx,
    `extract ${extractId}`,
    wait,
    () => getExtract(api, ws, extractId),
    (x) => x.status !== 'running',
    (x) => String(x.status),
    ctx.hint('extracts', 'get', extractId),
  );
  // The extract as it ended, on stdout like every waiting command's final object (as loads run --wait).
  if (e.status === 'completed' && !ctx.output.machine)
    ctx.output.success(`Extract ${extractId} completed; its rows are in data table ${idText(e.data_table_id)}`);
  await showExtract(ctx, e);
  if (e.status === 'completed') return;
  throw new ExitError(
    'failure',
    `extract ${extractId} run ended ${e.is_paused ? `paused (${e.pause_reason ?? 'unknown'})` : `with status ${String(e.status)}`}`,
  );
}
