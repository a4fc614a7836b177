import type { Context } from '../../context.js';
import { ExitCode, ExitError, UsageError } from '../../errors.js';
import type { TemplateSettings } from '../../api/extraction.js';
import { parseJson } from '../../util/json.js';
import { readDocument } from '../../util/document.js';
import { parseDate, parseDuration } from '../../util/validate.js';
import type { Opts } from '../shared/app.js';
import { pollUntil } from '../shared/poll.js';

/** `a,b , c` → ['a', 'b', 'c']; an empty list is refused, naming the flag. */
export function parseNames(value: string, flag: string): string[] {
  const names = String(value).split(',').map((s) => s.trim()).filter(Boolean);
  if (names.length === 0) throw new UsageError(`${flag} needs at least one name`);
  const dup = names.find((n, i) => names.indexOf(n) !== i);
  if (dup) throw new UsageError(`${flag} names "${dup}" twice`);
  return names;
}

export const SCHEDULES = ['hourly', 'daily', 'weekly', 'manual'] as const;

function jsonFlag(text: string, flag: string): unknown {
  try {
    return parseJson(text);
  } catch (err) {
    throw new UsageError(`${flag} must be JSON (${(err as Error).message})`);
  }
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === 'object' && !Array.isArray(v) && (v as object).constructor === Object;
}

const SETTINGS_KEYS = ['fields', 'additional_params', 'dynamic_fields', 'custom_filters', 'sync_historical_data'];

/** Checks a template_settings object against the contract's keys and types. */
function checkSettings(doc: unknown, where: string): TemplateSettings {
  if (!isPlainObject(doc)) throw new UsageError(`${where} must be an object of template settings`);
  for (const key of Object.keys(doc)) {
    if (!SETTINGS_KEYS.includes(key)) throw new UsageError(`${where}: unknown setting "${key}" (known: ${SETTINGS_KEYS.join(', ')})`);
  }
  const strings = (k: string) => {
    const v = doc[k];
    if (v !== undefined && !(Array.isArray(v) && v.every((x) => typeof x === 'string' && x !== ''))) throw new UsageError(`${where}: ${k} must be a list of names`);
  };
  strings('fields');
  strings('dynamic_fields');
  if (doc.additional_params !== undefined && !isPlainObject(doc.additional_params)) throw new UsageError(`${where}: additional_params must be an object`);
  if (doc.custom_filters !== undefined && !Array.isArray(doc.custom_filters)) throw new UsageError(`${where}: custom_filters must be a list`);
  const sync = doc.sync_historical_data;
  if (sync !== undefined && sync !== null) parseDate(String(sync), `${where}: sync_historical_data`);
  return doc as TemplateSettings;
}

/**
 * Template settings from `--settings-file` and the flags (flags win): `--fields`,
 * `--dynamic-fields`, `--additional-params JSON`, `--custom-filters JSON`,
 * `--sync-historical-data DATE|none`. Undefined when none was given.
 */
export async function settingsFrom(ctx: Context, opts: Opts): Promise<TemplateSettings | undefined> {
  let settings: TemplateSettings | undefined;
  if (opts.settingsFile !== undefined) {
    const doc = await readDocument(opts.settingsFile, ctx.io.stdin, '--settings-file');
    settings = { ...checkSettings(doc, '--settings-file') };
  }
  const put = <K extends keyof TemplateSettings>(k: K, v: TemplateSettings[K]) => {
    settings = { ...(settings ?? {}), [k]: v };
  };
  if (opts.fields !== undefined) put('fields', parseNames(opts.fields, '--fields'));
  if (opts.dynamicFields !== undefined) put('dynamic_fields', parseNames(opts.dynamicFields, '--dynamic-fields'));
  if (opts.additionalParams !== undefined) {
    const v = jsonFlag(opts.additionalParams, '--additional-params');
    if (!isPlainObject(v)) throw new UsageError('--additional-params must be a JSON object, e.g. \'{"attribution":"7d"}\'');
    put('additional_params', v);
  }
  if (opts.customFilters !== undefined) {
    const v = jsonFlag(opts.customFilters, '--custom-filters');
    if (!Array.isArray(v)) throw new UsageError('--custom-filters must be a JSON list');
    put('custom_filters', v);
  }
  if (opts.syncHistoricalData !== undefined) {
    put('sync_historical_data', opts.syncHistoricalData === 'none' ? null : parseDate(opts.syncHistoricalData, '--sync-historical-data'));
  }
  return settings;
}

/**
 * Polls `read` until `done` says the run ended, with a spinner on stderr. The interval starts
 * short (sandbox runs take moments) and grows to 5 s, so a long run costs few requests; a
 * transient fault of one read does not end the wait.
 * Past `--wait-timeout` the command ends with exit 8.
 */
export async function waitFor<T>(ctx: Context, opts: Opts, what: string, read: () => Promise<T>, done: (v: T) => string | undefined): Promise<T> {
  const timeoutMs = parseDuration(opts.waitTimeout ?? '30m', '--wait-timeout');
  const spinner = await ctx.output.spinner(`Waiting for ${what}`);
  try {
    const value = await pollUntil(read, (v) => done(v) !== undefined, { timeoutMs, intervalMs: 100, growth: 2, maxIntervalMs: 5000, signal: ctx.signal }, () =>
      new ExitError('waitTimeout', `${what} did not finish within --wait-timeout ${opts.waitTimeout ?? '30m'}`),
    );
    spinner.stop();
    return value;
  } catch (err) {
    spinner.fail(err instanceof ExitError && err.exitCode === ExitCode.waitTimeout ? `${what}: still running after ${opts.waitTimeout ?? '30m'}` : `${what}: stopped waiting`);
    throw err;
  }
}

/** Checks --wait-timeout before anything is sent. */
export function checkWaitFlags(opts: Opts): void {
  if (opts.waitTimeout !== undefined) {
    if (!opts.wait) throw new UsageError('--wait-timeout works with --wait');
    if (parseDuration(opts.waitTimeout, '--wait-timeout') <= 0) throw new UsageError('--wait-timeout must be longer than 0');
  }
}
