import { jsonInteger } from '../util/json.js';
import { path } from './path.js';
import type { ListOptions, Service } from './service.js';

/** Extraction templates and extracts: workspace operations (Bearer). */

export interface Field {
  name: string;
  format?: string;
  user_type?: string;
  is_dynamic?: boolean;
  [key: string]: unknown;
}

export interface ExtractTemplate {
  id: number | string;
  title?: string;
  datasource_name?: string;
  sql_name?: string;
  is_wide_template?: boolean;
  fields?: Field[];
  [key: string]: unknown;
}

/** Contract: the compact form by id. */
export interface CompactTemplate {
  id: number | string;
  datasource_name: string;
  is_wide_template: boolean;
}

/** Contract, validation: `template_settings` keys, each optional. */
export interface TemplateSettings {
  fields?: string[];
  additional_params?: Record<string, unknown>;
  dynamic_fields?: string[];
  custom_filters?: unknown[];
  sync_historical_data?: string | null;
}

export interface Extract {
  id: number | string;
  title?: string;
  connection_id?: number | string;
  datasource_name?: string;
  account_entity_id?: number | string;
  account_embedded_id?: number | string | null;
  data_table_id?: number | string;
  status?: string;
  is_paused?: boolean;
  pause_reason?: string | null;
  sync_historical_data?: string | null;
  template?: { id?: number | string; title?: string; is_wide_template?: boolean };
  template_settings?: TemplateSettings;
  [key: string]: unknown;
}

const ids = (list: string[]) => list.map(jsonInteger);

export function listTemplates(api: Service, ws: string, datasource: string, opts?: ListOptions): AsyncGenerator<ExtractTemplate> {
  return api.list<ExtractTemplate>({ path: path`/api/v3/datasources/${datasource}/extract-templates`, auth: 'bearer', workspaceId: ws }, opts);
}

export function getTemplate(api: Service, ws: string, datasource: string, id: string): Promise<ExtractTemplate> {
  return api.client.get<ExtractTemplate>(path`/api/v3/datasources/${datasource}/extract-templates/${id}`, 'bearer', ws);
}

export function getCompactTemplate(api: Service, ws: string, id: string): Promise<CompactTemplate> {
  return api.client.get<CompactTemplate>(path`/api/v3/extract-template/${id}/`, 'bearer', ws);
}

export interface TemplateCreate {
  title: string;
  parentId: string;
  connectionId?: string | undefined;
  fields?: string[] | undefined;
  dynamicFields?: string[] | undefined;
}

/** ExtractTemplateCreateRequest: `{title, parent_id, connection_id?, fields?, dynamic_fields?}`. */
export async function createTemplate(api: Service, ws: string, datasource: string, req: TemplateCreate): Promise<ExtractTemplate> {
  const body: Record<string, unknown> = { title: req.title, parent_id: jsonInteger(req.parentId) };
  if (req.connectionId) body.connection_id = jsonInteger(req.connectionId);
  if (req.fields) body.fields = req.fields;
  if (req.dynamicFields) body.dynamic_fields = req.dynamicFields;
  const res = await api.client.request<ExtractTemplate>({ method: 'POST', path: path`/api/v3/datasources/${datasource}/extract-templates`, auth: 'bearer', workspaceId: ws, body });
  return res.data;
}

/** Validation changes nothing, so a lost answer may be asked again. */
export async function validateTemplate(api: Service, ws: string, id: string, accounts: string[], settings?: TemplateSettings): Promise<Record<string, unknown>> {
  const body: Record<string, unknown> = { accounts: ids(accounts) };
  if (settings) body.template_settings = settings;
  const res = await api.client.request<Record<string, unknown>>({ method: 'POST', path: path`/api/v3/extract-template/${id}/validation/`, auth: 'bearer', workspaceId: ws, body, repeatable: true });
  return res.data;
}

export interface Preview {
  fields: Field[];
  rows: Array<Record<string, unknown>>;
  [key: string]: unknown;
}

/** Preview (§): `{accounts?, template_settings?}` gives `{fields, rows}`; it changes nothing. */
export async function previewTemplate(api: Service, ws: string, id: string, accounts: string[] | undefined, settings?: TemplateSettings): Promise<Preview> {
  const body: Record<string, unknown> = {};
  if (accounts) body.accounts = ids(accounts);
  if (settings) body.template_settings = settings;
  const res = await api.client.request<Preview>({ method: 'POST', path: path`/api/v3/extract-template/${id}/preview/`, auth: 'bearer', workspaceId: ws, body, repeatable: true });
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
  return api.list<SettingOptionGroup>(
    {
      method: 'POST',
      path: path`/api/v3/datasources/${datasource}/custom_setting_options/`,
      auth: 'bearer',
      workspaceId: ws,
      body: { connection_id: jsonInteger(req.connectionId), account_ids: req.accountIds },
      query: { search: req.search },
      pageSize: 100,
    },
    opts,
  );
}

export interface ExtractFilters {
  connectionIds?: string[] | undefined;
  datasourceNames?: string[] | undefined;
  dataTableIds?: string[] | undefined;
}

export function listExtracts(api: Service, ws: string, filters: ExtractFilters = {}, opts?: ListOptions): AsyncGenerator<Extract> {
  return api.list<Extract>(
    {
      path: '/api/v3/extracts',
      auth: 'bearer',
      workspaceId: ws,
      query: {
        connection_id: filters.connectionIds?.join(','),
        datasource_name: filters.datasourceNames?.join(','),
        data_table_id: filters.dataTableIds?.join(','),
      },
    },
    opts,
  );
}

export function getExtract(api: Service, ws: string, id: string): Promise<Extract> {
  return api.client.get<Extract>(path`/api/v3/extracts/${id}`, 'bearer', ws);
}

export interface ExtractCreate {
  templateId: string;
  accountId: string;
  dataTableId?: string | undefined;
  title?: string | undefined;
  schedule?: string | undefined;
  settings?: TemplateSettings | undefined;
}

/**
 * Versioning 8: create is `POST /api/v3.1/extracts/` (with the slash). Body (§):
 * `{template_id, account_embedded_id, data_table_id?, title?, schedule?, template_settings?}`.
 */
export async function createExtract(api: Service, ws: string, req: ExtractCreate): Promise<Extract> {
  const body: Record<string, unknown> = { template_id: jsonInteger(req.templateId), account_embedded_id: jsonInteger(req.accountId) };
  if (req.dataTableId) body.data_table_id = jsonInteger(req.dataTableId);
  if (req.title) body.title = req.title;
  if (req.schedule) body.schedule = req.schedule;
  if (req.settings) body.template_settings = req.settings;
  const res = await api.client.request<Extract>({ method: 'POST', path: '/api/v3.1/extracts/', auth: 'bearer', workspaceId: ws, body });
  return res.data;
}

export interface ExtractPatch {
  title?: string | undefined;
  schedule?: string | undefined;
  template_settings?: TemplateSettings | undefined;
}

/** A partial update; the same patch twice leaves the same extract. */
export async function patchExtract(api: Service, ws: string, id: string, patch: ExtractPatch): Promise<Extract> {
  const res = await api.client.request<Extract>({ method: 'PATCH', path: path`/api/v3/extracts/${id}`, auth: 'bearer', workspaceId: ws, body: patch, repeatable: true });
  return res.data;
}

/** Starts a run (202); not repeated, a second run would be refused while the first goes. */
export async function runExtract(api: Service, ws: string, id: string): Promise<Extract> {
  const res = await api.client.request<Extract>({ method: 'POST', path: path`/api/v3/extracts/${id}/run`, auth: 'bearer', workspaceId: ws });
  return res.data;
}

/** Pausing a paused extract (or unpausing a running one) changes nothing: safe to repeat. */
export async function setExtractPaused(api: Service, ws: string, id: string, paused: boolean): Promise<Extract> {
  const target = paused ? path`/api/v3/extracts/${id}/pause` : path`/api/v3/extracts/${id}/unpause`;
  const res = await api.client.request<Extract>({ method: 'POST', path: target, auth: 'bearer', workspaceId: ws, repeatable: true });
  return res.data;
}

/** Contract: required `migrated_from_extraction_id` and `template_settings`; omitted settings are copied. */
export async function migrateWide(api: Service, ws: string, fromId: string, settings: TemplateSettings, templateId?: string): Promise<Extract> {
  const body: Record<string, unknown> = { migrated_from_extraction_id: jsonInteger(fromId), template_settings: settings };
  if (templateId) body.template_id = jsonInteger(templateId);
  const res = await api.client.request<Extract>({ method: 'POST', path: '/api/v3/extracts/migrate-wide', auth: 'bearer', workspaceId: ws, body });
  return res.data;
}
