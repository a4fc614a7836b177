import { renamedValue } from './flags.js';
import type { TemplateSettings } from '../../api/extract-templates.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { parseDate } from '../../util/validate.js';
import type { TemplateSettingsFlags } from './flags.js';
import { parseNames } from './names.js';

function isObject(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === 'object' && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;
}

async function jsonFlag(text: string, flag: string): Promise<unknown> {
  const { parseJson } = await import('../../util/json.js');
  try {
    return parseJson(text);
  } catch (err) {
    throw new UsageError(`${flag} must be JSON (${err instanceof Error ? err.message : String(err)})`);
  }
}

/**
 * Template settings from `--settings-file` and the flags (flags win): `--fields`,
 * `--dynamic-fields`, `--additional-params JSON`, `--custom-filters JSON`,
 * `--sync-from-date DATE|none`. Undefined when none was given.
 */
export async function settingsFrom(ctx: Context, opts: TemplateSettingsFlags): Promise<TemplateSettings | undefined> {
  let settings: TemplateSettings | undefined;
  if (opts.settingsFile !== undefined) {
    const { readValidDocument } = await import('../../util/document.js');
    const doc = await readValidDocument(
      opts.settingsFile,
      ctx.io.stdin,
      '--settings-file',
      'template settings document',
      () => import('./template-settings-schema.js').then((m) => m.templateSettingsSchema),
    );
    settings = { ...doc };
  }
  const put = <K extends keyof TemplateSettings>(k: K, v: TemplateSettings[K]) => {
    settings = { ...(settings ?? {}), [k]: v };
  };
  if (opts.fields !== undefined) put('fields', parseNames(opts.fields, '--fields'));
  if (opts.dynamicFields !== undefined) put('dynamic_fields', parseNames(opts.dynamicFields, '--dynamic-fields'));
  if (opts.additionalParams !== undefined) {
    const v = await jsonFlag(opts.additionalParams, '--additional-params');
    if (!isObject(v)) throw new UsageError('--additional-params must be a JSON object, e.g. \'{"attribution":"7d"}\'');
    put('additional_params', v);
  }
  if (opts.customFilters !== undefined) {
    const v = await jsonFlag(opts.customFilters, '--custom-filters');
    if (!Array.isArray(v)) throw new UsageError('--custom-filters must be a JSON list');
    put('custom_filters', v);
  }
  const syncFrom = renamedValue(
    ctx,
    opts.syncFromDate,
    { value: opts.syncHistoricalData, flag: '--sync-historical-data' },
    '--sync-from-date',
  );
  if (syncFrom !== undefined)
    put('sync_historical_data', syncFrom === 'none' ? null : parseDate(syncFrom, '--sync-from-date'));
  return settings;
}
