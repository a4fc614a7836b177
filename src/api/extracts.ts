import { jsonInteger } from '../util/json.js';
import type { Received, ReceivedWith } from '../contract/answers.js';
import type { Schedule } from '../contract/extraction.js';
import type { extractCreate, extractMigrate, extractPatch, Sent } from '../contract/requests.js';
import type { TemplateSettings } from './extract-templates.js';
import type { ListOptions, Service } from './service.js';

/** Extracts: workspace operations (Bearer). */

/** An extract: what the contract shows of it, and what the vendor's documentation adds. */
export type Extract = ReceivedWith<
  'Extract',
  {
    id: number | string;
    title?: string;
    connection_id?: number | string;
    datasource_name?: string;
    data_table_id?: number | string;
    status?: string;
    /** when its last run started */
    last_run_at?: string | null;
    is_paused?: boolean;
    pause_reason?: string | null;
    template: Received<'Extract'>['template'] & { id?: number | string; title?: string };
    template_settings?: TemplateSettings;
  }
>;

export interface ExtractFilters {
  connectionIds?: string[] | undefined;
  datasourceNames?: string[] | undefined;
  dataTableIds?: string[] | undefined;
}

export function listExtracts(
  api: Service,
  ws: string,
  filters: ExtractFilters = {},
  opts?: ListOptions,
): AsyncGenerator<Extract> {
  return api.list<'extracts.list', Extract>(
    'extracts.list',
    {
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
  return api.read<'extracts.get', Extract>('extracts.get', { params: { id }, workspaceId: ws, expect: ['id'] });
}

export interface ExtractCreate {
  templateId: string;
  accountId: string;
  dataTableId?: string | undefined;
  title?: string | undefined;
  schedule?: Schedule | undefined;
  settings?: TemplateSettings | undefined;
}

/**
 * Create is `POST /api/v3.1/extracts/`, with the slash (docs/contract-rules.md, Versioning 8).
 * Body (not shown): `{template_id, account_embedded_id, data_table_id?, title?, schedule?, template_settings?}`.
 */
export async function createExtract(api: Service, ws: string, req: ExtractCreate): Promise<Extract> {
  const body: Sent<typeof extractCreate> = {
    template_id: jsonInteger(req.templateId),
    account_embedded_id: jsonInteger(req.accountId),
  };
  if (req.dataTableId) body.data_table_id = jsonInteger(req.dataTableId);
  if (req.title) body.title = req.title;
  if (req.schedule) body.schedule = req.schedule;
  if (req.settings) body.template_settings = req.settings;
  const res = await api.call<'extracts.create', Extract>('extracts.create', { workspaceId: ws, body });
  return res.data;
}

export type ExtractPatch = Sent<typeof extractPatch>;

/** A partial update; the same patch twice leaves the same extract. */
export async function patchExtract(api: Service, ws: string, id: string, patch: ExtractPatch): Promise<Extract> {
  const res = await api.call<'extracts.update', Extract>('extracts.update', {
    params: { id },
    workspaceId: ws,
    body: patch,
  });
  return res.data;
}

/** Starts a run (202); not repeated, a second run would be refused while the first goes. */
export async function runExtract(api: Service, ws: string, id: string): Promise<Extract> {
  const res = await api.call<'extracts.run', Extract>('extracts.run', { params: { id }, workspaceId: ws });
  return res.data;
}

/** Pausing a paused extract (or unpausing a running one) changes nothing: safe to repeat. */
export async function setExtractPaused(api: Service, ws: string, id: string, paused: boolean): Promise<Extract> {
  return api.read(paused ? 'extracts.pause' : 'extracts.unpause', { params: { extract_id: id }, workspaceId: ws });
}

/**
 * Required `migrated_from_extraction_id` and `template_settings`; omitted settings are copied
 * (docs/contract-rules.md, Extracts, migrate-wide).
 */
export async function migrateWide(
  api: Service,
  ws: string,
  fromId: string,
  settings: TemplateSettings,
  templateId?: string,
): Promise<Extract> {
  const body: Sent<typeof extractMigrate> = {
    migrated_from_extraction_id: jsonInteger(fromId),
    template_settings: settings,
  };
  if (templateId) body.template_id = jsonInteger(templateId);
  const res = await api.call<'extracts.migrateWide', Extract>('extracts.migrateWide', { workspaceId: ws, body });
  return res.data;
}
