import type { Context } from '../../context.js';
import { ExitError, UsageError } from '../../errors.js';
import { createLoad, deleteLoad, getLoad, listLoads, putLoad, runLoad, setLoadPaused, type Load } from '../../api/loads.js';
import { idText, jsonInteger } from '../../util/json.js';
import { parseChoice, parseDate, parseId } from '../../util/validate.js';
import type { Opts } from '../shared/app.js';
import { checkTitle, limitOf } from '../shared/options.js';
import { SCHEDULES, checkWaitFlags, waitFor } from './common.js';
import { confirmOrRequireYes } from '../shared/confirm.js';

function lastRunText(l: Load): string {
  const run = l.last_run;
  if (!run) return 'never';
  const range = run.date_from ? ` ${run.date_from}..${run.date_to}` : '';
  return `${String(run.status)}${range}${run.rows !== null && run.rows !== undefined ? `, ${run.rows} rows` : ''}`;
}

const columns = [
  { header: 'ID', value: (l: Load) => l.id },
  { header: 'TITLE', value: (l: Load) => l.title },
  { header: 'TABLE', value: (l: Load) => l.data_table_id },
  { header: 'DESTINATION', value: (l: Load) => `${String(l.destination_name ?? '')} ${idText(l.destination_connection_id)}`.trim() },
  { header: 'SCHEDULE', value: (l: Load) => l.schedule },
  { header: 'STATUS', value: (l: Load) => l.status },
  { header: 'LAST RUN', value: lastRunText, raw: (l: Load) => l.last_run },
];

async function showLoad(ctx: Context, l: Load): Promise<void> {
  if (ctx.output.machine) return ctx.output.json(l);
  const run = l.last_run;
  await ctx.output.object(l, [
    ['id', l.id],
    ['title', l.title],
    ['data table', l.data_table_id],
    ['destination connection', `${idText(l.destination_connection_id)}${l.destination_name ? ` (${String(l.destination_name)})` : ''}`],
    ['schedule', l.schedule],
    ['status', l.status],
    ['last run', lastRunText(l)],
    ...(run?.file ? [['file', run.file] as [string, unknown]] : []),
    ...(run?.error ? [['error', run.error] as [string, unknown]] : []),
  ]);
}

export async function runList(ctx: Context, _a: unknown[], opts: Opts): Promise<number> {
  const limit = limitOf(opts.limit);
  const ws = ctx.requireWorkspace();
  const api = await ctx.api();
  await ctx.output.list(listLoads(api, ws, { limit }), columns, { empty: `No loads in workspace ${ws}.` });
  return 0;
}

export async function runGet(ctx: Context, [id]: unknown[]): Promise<number> {
  const loadId = parseId(id as string, 'load id');
  const ws = ctx.requireWorkspace();
  const api = await ctx.api();
  await showLoad(ctx, await getLoad(api, ws, loadId));
  return 0;
}

export async function runCreate(ctx: Context, _a: unknown[], opts: Opts): Promise<number> {
  const tableId = parseId(opts.table, '--table');
  const dcId = parseId(opts.destinationConnection, '--destination-connection');
  const title = opts.title === undefined ? undefined : checkTitle(opts.title);
  const schedule = opts.schedule === undefined ? undefined : parseChoice(opts.schedule, SCHEDULES, '--schedule');
  const ws = ctx.requireWorkspace();
  const api = await ctx.api();
  const l = await createLoad(api, ws, { data_table_id: tableId, destination_connection_id: dcId, title, schedule });
  if (!ctx.output.machine) ctx.output.success(`Created load ${idText(l.id)}`);
  await showLoad(ctx, l);
  return 0;
}

/** PUT takes the whole load: the current one is read and the flags change it. */
export async function runUpdate(ctx: Context, [id]: unknown[], opts: Opts): Promise<number> {
  const loadId = parseId(id as string, 'load id');
  const title = opts.title === undefined ? undefined : checkTitle(opts.title);
  const tableId = opts.table === undefined ? undefined : parseId(opts.table, '--table');
  const dcId = opts.destinationConnection === undefined ? undefined : parseId(opts.destinationConnection, '--destination-connection');
  const schedule = opts.schedule === undefined ? undefined : parseChoice(opts.schedule, SCHEDULES, '--schedule');
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
  return 0;
}

export async function runDelete(ctx: Context, [id]: unknown[], opts: Opts): Promise<number> {
  const loadId = parseId(id as string, 'load id');
  const ws = ctx.requireWorkspace();
  await confirmOrRequireYes(ctx, opts.yes, `deleting load ${loadId}`, `Delete load ${loadId} in workspace ${ws}?`);
  const api = await ctx.api();
  await deleteLoad(api, ws, loadId);
  if (ctx.output.machine) ctx.output.json({ id: jsonInteger(loadId), deleted: true });
  else ctx.output.success(`Deleted load ${loadId}`);
  return 0;
}

export async function runPause(ctx: Context, [id]: unknown[]): Promise<number> {
  return setPaused(ctx, id, true);
}

export async function runUnpause(ctx: Context, [id]: unknown[]): Promise<number> {
  return setPaused(ctx, id, false);
}

async function setPaused(ctx: Context, id: unknown, paused: boolean): Promise<number> {
  const loadId = parseId(id as string, 'load id');
  const ws = ctx.requireWorkspace();
  const api = await ctx.api();
  const l = await setLoadPaused(api, ws, loadId, paused);
  if (ctx.output.machine) ctx.output.json(l);
  else ctx.output.success(paused ? `Load ${loadId} is paused` : `Load ${loadId} is active again`);
  return 0;
}

/** `--from`/`--to` run that range instead of the schedule window; both or neither. */
function rangeOf(opts: Opts): { from: string; to: string } | undefined {
  if (opts.from === undefined && opts.to === undefined) return undefined;
  if (opts.from === undefined || opts.to === undefined) throw new UsageError('--from and --to go together: pass both to run a range, or neither for the schedule window');
  const from = parseDate(opts.from, '--from');
  const to = parseDate(opts.to, '--to');
  if (from > to) throw new UsageError(`--from ${from} is after --to ${to}`);
  return { from, to };
}

export async function runRun(ctx: Context, [id]: unknown[], opts: Opts): Promise<number> {
  const loadId = parseId(id as string, 'load id');
  const range = rangeOf(opts);
  checkWaitFlags(opts);
  const ws = ctx.requireWorkspace();
  const api = await ctx.api();
  const started = await runLoad(api, ws, loadId, range);
  const runId = started.last_run?.id;
  if (!opts.wait) {
    if (ctx.output.machine) ctx.output.json(started);
    else ctx.output.success(`Load ${loadId} started run ${idText(runId)}${range ? ` for ${range.from}..${range.to}` : ''}; follow it with \`edp loads get ${loadId}\` or pass --wait`);
    return 0;
  }
  const l = await waitFor(ctx, opts, `load ${loadId}`, () => getLoad(api, ws, loadId), (x) =>
    x.last_run && idText(x.last_run.id) === idText(runId) && x.last_run.status === 'running' ? undefined : String(x.last_run?.status),
  );
  if (ctx.output.machine) ctx.output.json(l);
  else await showLoad(ctx, l);
  if (l.last_run?.status === 'completed') return 0;
  throw new ExitError('failure', `load ${loadId} run ${idText(runId)} ended ${String(l.last_run?.status ?? 'unknown')}${l.last_run?.error ? `: ${l.last_run.error}` : ''}`);
}
