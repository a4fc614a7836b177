import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import {
  createTemplate, getCompactTemplate, getTemplate, listSettingOptions, listTemplates, previewTemplate, validateTemplate,
  type ExtractTemplate, type Field, type SettingOptionGroup,
} from '../../api/extraction.js';
import { idText } from '../../util/json.js';
import { parseId, parseIdList } from '../../util/validate.js';
import type { Opts } from '../shared/app.js';
import { checkTitle, limitOf, parseName } from '../shared/options.js';
import { parseNames, settingsFrom } from './common.js';
import { suggestingDataSource } from '../shared/datasource-names.js';

const fieldColumns = [
  { header: 'NAME', value: (f: Field) => f.name },
  { header: 'FORMAT', value: (f: Field) => f.format },
  { header: 'TYPE', value: (f: Field) => f.user_type },
  { header: 'DYNAMIC', value: (f: Field) => f.is_dynamic },
];

async function showTemplate(ctx: Context, t: ExtractTemplate): Promise<void> {
  if (ctx.output.machine) return ctx.output.json(t);
  await ctx.output.object(t, [
    ['id', t.id],
    ['title', t.title],
    ['data source', t.datasource_name],
    ['sql name', t.sql_name],
    ['wide', t.is_wide_template],
    ['parent', t.parent_id],
  ]);
  // Piped, the fields are one line of the detail view already (compact JSON).
  if (t.fields && ctx.output.stdoutIsTTY) {
    ctx.output.line();
    await ctx.output.table(fieldColumns, t.fields);
  }
}

export async function runList(ctx: Context, _a: unknown[], opts: Opts): Promise<number> {
  const ds = parseName(opts.dataSource, '--data-source');
  const limit = limitOf(opts.limit);
  const ws = ctx.requireWorkspace();
  const api = await ctx.api();
  await suggestingDataSource(api, ws, ds, () => ctx.output.list(
    listTemplates(api, ws, ds, { limit }),
    [
      { header: 'ID', value: (t: ExtractTemplate) => t.id },
      { header: 'TITLE', value: (t: ExtractTemplate) => t.title },
      { header: 'WIDE', value: (t: ExtractTemplate) => t.is_wide_template },
      { header: 'GLOBAL', value: (t: ExtractTemplate) => t.is_global },
      { header: 'SQL NAME', value: (t: ExtractTemplate) => t.sql_name },
    ],
    { empty: `No ${ds} extract templates.` },
  ));
  return 0;
}

/** Without --data-source the compact form (by id) tells the data source of the detail. */
export async function runGet(ctx: Context, [id]: unknown[], opts: Opts): Promise<number> {
  const templateId = parseId(id as string, 'template id');
  const ds = opts.dataSource === undefined ? undefined : parseName(opts.dataSource, '--data-source');
  const ws = ctx.requireWorkspace();
  const api = await ctx.api();
  if (opts.compact) {
    await ctx.output.object(await getCompactTemplate(api, ws, templateId));
    return 0;
  }
  const source = ds ?? (await getCompactTemplate(api, ws, templateId)).datasource_name;
  await showTemplate(ctx, await getTemplate(api, ws, source, templateId));
  return 0;
}

/**
 * Contract: a template is based on a global parent; a wide parent needs `connection_id` and a
 * field selection. The parent's compact form is read first so that a missing --connection
 * or --fields is refused before the create is sent.
 */
export async function runCreate(ctx: Context, _a: unknown[], opts: Opts): Promise<number> {
  const ds = parseName(opts.dataSource, '--data-source');
  const title = checkTitle(opts.title);
  const parentId = parseId(opts.parent, '--parent');
  const connectionId = opts.connection === undefined ? undefined : parseId(opts.connection, '--connection');
  const fields = opts.fields === undefined ? undefined : parseNames(opts.fields, '--fields');
  const dynamicFields = opts.dynamicFields === undefined ? undefined : parseNames(opts.dynamicFields, '--dynamic-fields');
  const ws = ctx.requireWorkspace();
  const api = await ctx.api();
  const parent = await getCompactTemplate(api, ws, parentId);
  if (parent.datasource_name !== ds) throw new UsageError(`--parent ${parentId} is a ${parent.datasource_name} template, not ${ds}`);
  if (parent.is_wide_template) {
    if (!connectionId) throw new UsageError(`--parent ${parentId} is a wide template: pass --connection ID (its dynamic schema validates the fields)`);
    if (!fields) throw new UsageError(`--parent ${parentId} is a wide template: pass --fields with the dimensions and metrics to keep`);
  } else if (dynamicFields) {
    throw new UsageError(`--dynamic-fields needs a wide parent; template ${parentId} is not wide`);
  }
  const created = await createTemplate(api, ws, ds, { title, parentId, connectionId, fields, dynamicFields });
  if (!ctx.output.machine) ctx.output.success(`Created extract template ${idText(created.id)}`);
  await showTemplate(ctx, created);
  return 0;
}

export async function runValidate(ctx: Context, [id]: unknown[], opts: Opts): Promise<number> {
  const templateId = parseId(id as string, 'template id');
  const accounts = parseIdList(opts.accounts, '--accounts');
  const settings = await settingsFrom(ctx, opts);
  const ws = ctx.requireWorkspace();
  const api = await ctx.api();
  const result = await validateTemplate(api, ws, templateId, accounts, settings);
  if (ctx.output.machine) ctx.output.json(result);
  else ctx.output.success(`Template ${templateId} is valid for accounts ${accounts.join(', ')}${result.connection_id !== undefined ? ` (connection ${idText(result.connection_id)})` : ''}`);
  return 0;
}

export async function runPreview(ctx: Context, [id]: unknown[], opts: Opts): Promise<number> {
  const templateId = parseId(id as string, 'template id');
  const accounts = opts.accounts === undefined ? undefined : parseIdList(opts.accounts, '--accounts');
  const settings = await settingsFrom(ctx, opts);
  const ws = ctx.requireWorkspace();
  const api = await ctx.api();
  const preview = await previewTemplate(api, ws, templateId, accounts, settings);
  if (ctx.output.machine) {
    ctx.output.json(preview);
    return 0;
  }
  const names = (preview.fields ?? []).map((f) => f.name);
  await ctx.output.list(
    preview.rows ?? [],
    names.map((n) => ({ header: n, value: (r: Record<string, unknown>) => r[n] })),
    { empty: 'The preview has no rows.' },
  );
  return 0;
}

export async function runSettingOptions(ctx: Context, _a: unknown[], opts: Opts): Promise<number> {
  const ds = parseName(opts.dataSource, '--data-source');
  const connectionId = parseId(opts.connection, '--connection');
  const accountIds = parseNames(opts.accounts, '--accounts');
  const limit = limitOf(opts.limit);
  const ws = ctx.requireWorkspace();
  const api = await ctx.api();
  const groups = listSettingOptions(api, ws, ds, { connectionId, accountIds, search: opts.search }, { limit });
  if (ctx.output.machine) {
    await ctx.output.list(groups, []);
    return 0;
  }
  // One row per option, so that a person can read them grouped by account.
  async function* rows(): AsyncGenerator<{ group: SettingOptionGroup; option: { value: string; title: string } }> {
    for await (const group of groups) for (const option of group.options ?? []) yield { group, option };
  }
  await ctx.output.list(
    rows(),
    [
      { header: 'ACCOUNT', value: (r) => r.group.account_id },
      { header: 'ACCOUNT NAME', value: (r) => r.group.account_name },
      { header: 'VALUE', value: (r) => r.option.value },
      { header: 'TITLE', value: (r) => r.option.title },
    ],
    { empty: 'No options.' },
  );
  return 0;
}
