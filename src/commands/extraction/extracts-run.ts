import type { Context } from '../../context.js';
import { ExitError, UsageError } from '../../errors.js';
import {
  createExtract, getExtract, listExtracts, migrateWide, patchExtract, runExtract, setExtractPaused, type Extract,
} from '../../api/extraction.js';
import { idText } from '../../util/json.js';
import { parseChoice, parseId, parseIdList } from '../../util/validate.js';
import type { Opts } from '../shared/app.js';
import { checkTitle, limitOf, parseName } from '../shared/options.js';
import { SCHEDULES, checkWaitFlags, parseNames, settingsFrom, waitFor } from './common.js';

const columns = [
  { header: 'ID', value: (e: Extract) => e.id },
  { header: 'TITLE', value: (e: Extract) => e.title },
  { header: 'DATA SOURCE', value: (e: Extract) => e.datasource_name },
  { header: 'ACCOUNT', value: (e: Extract) => e.account_embedded_id ?? e.account_entity_id },
  { header: 'TABLE', value: (e: Extract) => e.data_table_id },
  { header: 'WIDE', value: (e: Extract) => e.template?.is_wide_template },
  // status and pause reason are open sets: shown as the service sends them
  { header: 'STATUS', value: (e: Extract) => (e.is_paused ? `paused (${e.pause_reason ?? 'unknown'})` : e.status), raw: (e: Extract) => e.status },
];

async function showExtract(ctx: Context, e: Extract): Promise<void> {
  if (ctx.output.machine) return ctx.output.json(e);
  await ctx.output.object(e, [
    ['id', e.id],
    ['title', e.title],
    ['data source', e.datasource_name],
    ['connection', e.connection_id],
    ['account (embedded id)', e.account_embedded_id],
    ['account entity id', e.account_entity_id],
    ['data table', e.data_table_id],
    ['template', `${idText(e.template?.id)}${e.template?.title ? ` ${e.template.title}` : ''}${e.template?.is_wide_template ? ' (wide)' : ''}`],
    ['status', e.status],
    ['paused', e.is_paused ? `yes (${e.pause_reason ?? 'unknown'})` : 'no'],
    ['schedule', e.schedule],
    ['fields', e.template_settings?.fields?.join(', ')],
    ['dynamic fields', e.template_settings?.dynamic_fields?.join(', ')],
    ['sync historical data', e.sync_historical_data ?? ''],
    ['last run', e.last_run_at],
    ...(e.migrated_to_id ? [['migrated to', e.migrated_to_id] as [string, unknown]] : []),
    ...(e.migrated_from_id ? [['migrated from', e.migrated_from_id] as [string, unknown]] : []),
  ]);
}

export async function runList(ctx: Context, _a: unknown[], opts: Opts): Promise<number> {
  const filters = {
    connectionIds: opts.connection === undefined ? undefined : parseIdList(opts.connection, '--connection'),
    datasourceNames: opts.dataSource === undefined ? undefined : parseNames(opts.dataSource, '--data-source').map((n) => parseName(n, '--data-source')),
    dataTableIds: opts.table === undefined ? undefined : parseIdList(opts.table, '--table'),
  };
  const limit = limitOf(opts.limit);
  const ws = ctx.requireWorkspace();
  const api = await ctx.api();
  await ctx.output.list(listExtracts(api, ws, filters, { limit }), columns, { empty: `No extracts in workspace ${ws}.` });
  return 0;
}

export async function runGet(ctx: Context, [id]: unknown[]): Promise<number> {
  const extractId = parseId(id as string, 'extract id');
  const ws = ctx.requireWorkspace();
  const api = await ctx.api();
  await showExtract(ctx, await getExtract(api, ws, extractId));
  return 0;
}

export async function runCreate(ctx: Context, _a: unknown[], opts: Opts): Promise<number> {
  const templateId = parseId(opts.template, '--template');
  const accountId = parseId(opts.account, '--account');
  const dataTableId = opts.table === undefined ? undefined : parseId(opts.table, '--table');
  const title = opts.title === undefined ? undefined : checkTitle(opts.title);
  const schedule = opts.schedule === undefined ? undefined : parseChoice(opts.schedule, SCHEDULES, '--schedule');
  const settings = await settingsFrom(ctx, opts);
  const ws = ctx.requireWorkspace();
  const api = await ctx.api();
  const e = await createExtract(api, ws, { templateId, accountId, dataTableId, title, schedule, settings });
  if (!ctx.output.machine) ctx.output.success(`Created extract ${idText(e.id)} into data table ${idText(e.data_table_id)}; its first run has started`);
  await showExtract(ctx, e);
  return 0;
}

/** A partial update (PATCH): only what the flags name changes. */
export async function runUpdate(ctx: Context, [id]: unknown[], opts: Opts): Promise<number> {
  const extractId = parseId(id as string, 'extract id');
  const title = opts.title === undefined ? undefined : checkTitle(opts.title);
  const schedule = opts.schedule === undefined ? undefined : parseChoice(opts.schedule, SCHEDULES, '--schedule');
  const settings = await settingsFrom(ctx, opts);
  if (title === undefined && schedule === undefined && settings === undefined) {
    throw new UsageError('nothing to update: pass --title, --schedule, --fields, --dynamic-fields, --additional-params, --custom-filters, --sync-historical-data or --settings-file');
  }
  const ws = ctx.requireWorkspace();
  const api = await ctx.api();
  const e = await patchExtract(api, ws, extractId, { title, schedule, template_settings: settings });
  if (!ctx.output.machine) ctx.output.success(`Updated extract ${extractId}`);
  await showExtract(ctx, e);
  return 0;
}

export async function runRun(ctx: Context, [id]: unknown[], opts: Opts): Promise<number> {
  const extractId = parseId(id as string, 'extract id');
  checkWaitFlags(opts);
  const ws = ctx.requireWorkspace();
  const api = await ctx.api();
  const started = await runExtract(api, ws, extractId);
  if (!opts.wait) {
    if (ctx.output.machine) ctx.output.json(started);
    else ctx.output.success(`Extract ${extractId} is running; follow it with \`edp extracts get ${extractId}\` or pass --wait`);
    return 0;
  }
  const e = await waitFor(ctx, opts, `extract ${extractId}`, () => getExtract(api, ws, extractId), (x) => (x.status === 'running' ? undefined : String(x.status)));
  if (ctx.output.machine) ctx.output.json(e);
  if (e.status === 'completed') {
    if (!ctx.output.machine) ctx.output.success(`Extract ${extractId} completed; its rows are in data table ${idText(e.data_table_id)}`);
    return 0;
  }
  throw new ExitError('failure', `extract ${extractId} run ended ${e.is_paused ? `paused (${e.pause_reason ?? 'unknown'})` : `with status ${String(e.status)}`}`);
}

export async function runPause(ctx: Context, [id]: unknown[]): Promise<number> {
  return setPaused(ctx, id, true);
}

export async function runUnpause(ctx: Context, [id]: unknown[]): Promise<number> {
  return setPaused(ctx, id, false);
}

async function setPaused(ctx: Context, id: unknown, paused: boolean): Promise<number> {
  const extractId = parseId(id as string, 'extract id');
  const ws = ctx.requireWorkspace();
  const api = await ctx.api();
  const e = await setExtractPaused(api, ws, extractId, paused);
  if (ctx.output.machine) ctx.output.json(e);
  else ctx.output.success(paused ? `Extract ${extractId} is paused; it delivers nothing until unpaused` : `Extract ${extractId} is unpaused and running`);
  return 0;
}

/**
 * Contract: a new extract on a wide template; the original is paused and its data stays
 * queryable. Settings not given are copied from the original by the service.
 */
export async function runMigrateWide(ctx: Context, [id]: unknown[], opts: Opts): Promise<number> {
  const extractId = parseId(id as string, 'extract id');
  const templateId = opts.template === undefined ? undefined : parseId(opts.template, '--template');
  const settings = (await settingsFrom(ctx, opts)) ?? {};
  const ws = ctx.requireWorkspace();
  const api = await ctx.api();
  const e = await migrateWide(api, ws, extractId, settings, templateId);
  if (!ctx.output.machine) {
    ctx.output.success(`Migrated extract ${extractId} to wide extract ${idText(e.id)} (data table ${idText(e.data_table_id)}); the original is paused and its data stays queryable`);
  }
  await showExtract(ctx, e);
  return 0;
}
