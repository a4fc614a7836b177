import { jsonInteger } from '../util/json.js';
import type { Received } from '../contract/answers.js';
import type {
  customSettingOptions,
  extractTemplateCreate,
  Sent,
  templatePreview,
  templateSettings,
  templateValidation,
} from '../contract/requests.js';
import type { ListOptions, Service } from './service.js';

/** Extraction templates: workspace operations (Bearer). */

/** A field of a template, an extract or a data table. */
export type Field = Received<'Field'>;

/** A template as lists show it (the vendor's documentation) and, in detail, with its `sql_name` and fields. */
export type ExtractTemplate = Partial<Received<'ExtractTemplate'>> & {
  id: number | string;
  title?: string;
  datasource_name?: string;
  is_wide_template?: boolean;
};

/** The compact form by id (docs/contract-rules.md, Extraction template). */
export type CompactTemplate = Received<'CompactTemplate'>;

/** `template_settings` of validation, previews and extracts: these keys, each optional. */
export type TemplateSettings = Sent<typeof templateSettings>;

const ids = (list: string[]) => list.map(jsonInteger);

export function listTemplates(
  api: Service,
  ws: string,
  datasource: string,
  opts?: ListOptions,
): AsyncGenerator<ExtractTemplate> {
  return api.list<'extractTemplates.list', ExtractTemplate>(
    'extractTemplates.list',
    { params: { datasource_name: datasource }, workspaceId: ws },
    opts,
  );
}

export function getTemplate(api: Service, ws: string, datasource: string, id: string): Promise<ExtractTemplate> {
  return api.read<'extractTemplates.get', ExtractTemplate>('extractTemplates.get', {
    params: { datasource_name: datasource, id },
    workspaceId: ws,
    expect: ['id'],
  });
}

export function getCompactTemplate(api: Service, ws: string, id: string): Promise<CompactTemplate> {
  return api.read<'extractTemplates.getCompact', CompactTemplate>('extractTemplates.getCompact', {
    params: { template_id: id },
    workspaceId: ws,
    expect: ['id'],
  });
}

export interface TemplateCreate {
  title: string;
  parentId: string;
  connectionId?: string | undefined;
  fields?: string[] | undefined;
  dynamicFields?: string[] | undefined;
}

/** ExtractTemplateCreateRequest: `{title, parent_id, connection_id?, fields?, dynamic_fields?}`. */
export async function createTemplate(
  api: Service,
  ws: string,
  datasource: string,
  req: TemplateCreate,
): Promise<ExtractTemplate> {
  const body: Sent<typeof extractTemplateCreate> = { title: req.title, parent_id: jsonInteger(req.parentId) };
  if (req.connectionId) body.connection_id = jsonInteger(req.connectionId);
  if (req.fields) body.fields = req.fields;
  if (req.dynamicFields) body.dynamic_fields = req.dynamicFields;
  const res = await api.call<'extractTemplates.create', ExtractTemplate>('extractTemplates.create', {
    params: { datasource_name: datasource },
    workspaceId: ws,
    body,
  });
  return res.data;
}

/** Validation changes nothing, so a lost answer may be asked again. */
export async function validateTemplate(
  api: Service,
  ws: string,
  id: string,
  accounts: string[],
  settings?: TemplateSettings,
): Promise<Record<string, unknown>> {
  const body: Sent<typeof templateValidation> = { accounts: ids(accounts) };
  if (settings) body.template_settings = settings;
  return api.read('extractTemplates.validate', { params: { template_id: id }, workspaceId: ws, body });
}

export interface Preview {
  fields: Field[];
  rows: Array<Record<string, unknown>>;
  [key: string]: unknown;
}

/** Preview (bodies not shown): `{accounts?, template_settings?}` gives `{fields, rows}`; it changes nothing. */
export async function previewTemplate(
  api: Service,
  ws: string,
  id: string,
  accounts: string[] | undefined,
  settings?: TemplateSettings,
): Promise<Preview> {
  const body: Sent<typeof templatePreview> = {};
  if (accounts) body.accounts = ids(accounts);
  if (settings) body.template_settings = settings;
  const res = await api.call<'extractTemplates.preview', Preview>('extractTemplates.preview', {
    params: { template_id: id },
    workspaceId: ws,
    body,
  });
  return res.data;
}

export interface SettingOptionGroup {
  account_id: string;
  account_name?: string;
  options: Array<{ value: string; title: string }>;
  [key: string]: unknown;
}

/** Custom setting options, grouped by account: a read sent as POST, paged like a list. */
export function listSettingOptions(
  api: Service,
  ws: string,
  datasource: string,
  req: { connectionId: string; accountIds: string[]; search?: string | undefined },
  opts?: ListOptions,
): AsyncGenerator<SettingOptionGroup> {
  return api.list<'extractTemplates.customSettingOptions', SettingOptionGroup>(
    'extractTemplates.customSettingOptions',
    {
      params: { datasource_name: datasource },
      workspaceId: ws,
      body: {
        connection_id: jsonInteger(req.connectionId),
        account_ids: req.accountIds,
      } satisfies Sent<typeof customSettingOptions>,
      query: { search: req.search },
      pageSize: 100,
    },
    opts,
  );
}
