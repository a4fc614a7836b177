import { getLoad, runLoad } from '../../api/loads.js';
import type { Context } from '../../context.js';
import { ExitError, UsageError } from '../../errors.js';
import { idText } from '../../util/json.js';
import { parseDate, parseId } from '../../util/validate.js';
import { bulkForm, idWords, runBulk } from '../shared/bulk.js';
import { runWaitOf, waitForRun } from '../shared/poll.js';
import type { RunOptions } from './command.js';
import { showLoad } from './shared/show.js';

/** `--from`/`--to` run that range instead of the schedule window; both or neither. */
function rangeOf(opts: RunOptions): { from: string; to: string } | undefined {
  if (opts.from === undefined && opts.to === undefined) return undefined;
  if (opts.from === undefined || opts.to === undefined)
    throw new UsageError('--from and --to go together: pass both to run a range, or neither for the schedule window');
  const from = parseDate(opts.from, '--from');
  const to = parseDate(opts.to, '--to');
  if (from > to) throw new UsageError(`--from ${from} is after --to ${to}`);
  return { from, to };
}

export async function runRun(opts: RunOptions, ctx: Context): Promise<void> {
  const ids = idWords(opts.args[0], 'load id');
  if (bulkForm(ctx, opts, ids.length === 1, false))
    return runBulk(ctx, opts, {
      action: 'loads.run',
      ids,
      selection: {},
      range: rangeOf(opts),
      refused: [opts.wait && '--wait'],
      refusedWhy: `follow runs in bulk with \`${ctx.hint('loads', 'list')}\``,
    });
  const loadId = parseId(opts.args[0][0], 'load id');
  const range = rangeOf(opts);
  const wait = runWaitOf(ctx, opts);
  const ws = ctx.requireWorkspace();
  const api = await ctx.api();
  const started = await runLoad(api, ws, loadId, range);
  const runId = started.last_run?.id;
  if (!wait) {
    if (ctx.output.machine) ctx.output.json(started);
    else
      ctx.output.success(
        `Load ${loadId} started run ${idText(runId)}${range ? ` for ${range.from}..${range.to}` : ''}; follow it with \`${ctx.hint('loads', 'get', loadId)}\` or pass --wait`,
      );
    return;
  }
  const l = await waitForRun(
    ctx,
    `load ${loadId}`,
    wait,
    () => getLoad(api, ws, loadId),
    (x) => !(x.last_run && idText(x.last_run.id) === idText(runId) && x.last_run.status === 'running'),
    (x) => `${String(x.last_run?.status ?? 'unknown')} (run ${idText(x.last_run?.id)})`,
    ctx.hint('loads', 'get', loadId),
  );
  if (l.last_run?.status === 'completed' && !ctx.output.machine)
    ctx.output.success(`Load ${loadId} run ${idText(runId)} completed`);
  await showLoad(ctx, l);
  if (l.last_run?.status === 'completed') return;
  throw new ExitError(
    'failure',
    `load ${loadId} run ${idText(runId)} ended ${String(l.last_run?.status ?? 'unknown')}${l.last_run?.error ? `: ${l.last_run.error}` : ''}`,
  );
}
