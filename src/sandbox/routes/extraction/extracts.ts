import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  extractCreate,
  extractListQuery,
  extractMigrate,
  extractPatch,
  extractPut,
} from '../../../contract/requests.js';
import { invalidQuery } from '../../errors.js';
import { byId, paginate, parseBody, pathId, queryOf, requireBearer, type IdParams } from '../../http.js';
import { canDeliver } from '../../pipeline.js';
import type { Store } from '../../store.js';
import type { Account, DataTable, Extract, ExtractTemplate } from '../../types.js';
import {
  type ExtractSettings,
  conflict,
  connectionOf,
  emitDataTable,
  emitExtraction,
  extractFields,
  invalid,
  settingsOf,
  tableTemplate,
  templateOf,
  visibleTemplate,
  workspaceAccount,
  workspaceExtract,
  workspaceTable,
} from './model.js';
import { checkHistoryDate, resolveSettings, type TemplateSettingsInput } from './templates.js';
import { serve } from '../../operations.js';

/** Account identifiers, `sync_historical_data`, `template.is_wide_template` (docs/contract-rules.md, Extract). */
export function extractView(store: Store, e: Extract) {
  const template = templateOf(store, e.template_id);
  const account = store.state.accounts.find((a) => a.id === e.account_entity_id);
  const settings = settingsOf(store, e);
  return {
    id: e.id,
    title: e.title,
    connection_id: e.connection_id,
    datasource_name: e.datasource_name,
    account_entity_id: e.account_entity_id,
    account_embedded_id: e.account_embedded_id,
    account_title: account?.title ?? null,
    data_table_id: e.data_table_id,
    status: e.status,
    is_paused: e.is_paused,
    pause_reason: e.pause_reason,
    schedule: e.schedule ?? 'daily',
    template: {
      id: e.template_id,
      title: template?.title ?? null,
      datasource_name: template?.datasource_name ?? e.datasource_name,
      is_wide_template: template?.is_wide_template ?? false,
    },
    template_settings: settings,
    fields: extractFields(store, e),
    sync_historical_data: e.sync_historical_data,
    last_run_at: e.last_run_at,
    migrated_from_id: e.migrated_from_id ?? null,
    migrated_to_id: e.migrated_to_id ?? null,
    created_at: e.created_at,
    updated_at: e.updated_at,
  };
}

/** `connection_id=1,2`: one or several integers. */
function intFilter(request: FastifyRequest, name: string): Set<number> | undefined {
  const raw = queryOf(request)[name];
  if (raw === undefined || raw.trim() === '') return undefined;
  const parts = raw.split(',').map((p) => p.trim());
  if (!parts.every((p) => /^\d+$/.test(p)))
    throw invalidQuery(name, [], `"${name}" must be an integer or comma-separated integers.`);
  return new Set(parts.map(Number));
}

function textFilter(request: FastifyRequest, name: string): Set<string> | undefined {
  const raw = queryOf(request)[name];
  if (raw === undefined || raw.trim() === '') return undefined;
  return new Set(
    raw
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean),
  );
}

function tableSqlName(base: string, id: number): string {
  return `${base}_${id}`;
}

/** A new data table holding a template's schema. */
export function createTable(store: Store, wsId: number, template: ExtractTemplate, title: string): DataTable {
  const id = store.nextId('data_table');
  const table: DataTable = {
    id,
    workspace_id: wsId,
    title,
    sql_name: tableSqlName(template.sql_name, id),
    datasource_name: template.datasource_name,
    created_at: store.clock.iso(),
    template_id: template.id,
  };
  store.state.data_tables.push(table);
  emitDataTable(store, 'data_table_created', table);
  return table;
}

export function newExtract(
  store: Store,
  account: Account,
  template: ExtractTemplate,
  table: DataTable,
  opts: { title: string; schedule: string; settings: ExtractSettings; syncFrom: string | null; migratedFrom?: number },
): Extract {
  const now = store.clock.iso();
  const e: Extract = {
    id: store.nextId('extract'),
    workspace_id: account.workspace_id,
    connection_id: account.connection_id,
    datasource_name: template.datasource_name,
    account_entity_id: account.id,
    account_embedded_id: account.id,
    template_id: template.id,
    data_table_id: table.id,
    title: opts.title,
    is_paused: false,
    pause_reason: null,
    status: 'new',
    delivered: false,
    last_run_at: null,
    sync_historical_data: opts.syncFrom,
    created_at: now,
    updated_at: now,
    schedule: opts.schedule,
    template_settings: opts.settings,
    migrated_from_id: opts.migratedFrom ?? null,
    migrated_to_id: null,
    historical_pending: opts.syncFrom !== null,
  };
  store.state.extracts.push(e);
  emitExtraction(store, 'extraction_created', e);
  emitDataTable(store, 'extraction_added', table);
  return e;
}

function usableAccount(store: Store, wsId: number, id: number, template: ExtractTemplate, field: string): Account {
  const account = workspaceAccount(store, wsId, id);
  if (!account) throw invalid(field, `no account ${id} in this workspace`);
  if (account.datasource_name !== template.datasource_name)
    throw invalid(
      field,
      `account ${id} is a ${account.datasource_name} account; template ${template.id} is for ${template.datasource_name}`,
    );
  const connection = connectionOf(store, account.connection_id);
  if (!account.is_active || !connection || connection.deleted) throw invalid(field, `account ${id} is inactive`);
  return account;
}

/** Applies settings and reports what changed as the contract's Extraction events. */
function applyChanges(
  store: Store,
  e: Extract,
  next: { title?: string; schedule?: string; settings?: ExtractSettings; syncFrom?: string | null },
): void {
  const before = settingsOf(store, e);
  if (next.title !== undefined) e.title = next.title;
  if (next.schedule !== undefined && next.schedule !== (e.schedule ?? 'daily')) {
    e.schedule = next.schedule;
    emitExtraction(store, 'extraction_schedules_changed', e);
  }
  if (next.settings) {
    e.template_settings = next.settings;
    if (
      JSON.stringify([before.fields, before.dynamic_fields]) !==
      JSON.stringify([next.settings.fields, next.settings.dynamic_fields])
    ) {
      emitExtraction(store, 'fields_changed', e);
    }
    if (JSON.stringify(before.additional_params) !== JSON.stringify(next.settings.additional_params))
      emitExtraction(store, 'additional_params_changed', e);
    // custom_filters_changed is one of the contract's silent event types: never emitted.
  }
  if (next.syncFrom !== undefined && next.syncFrom !== e.sync_historical_data) {
    e.sync_historical_data = next.syncFrom;
    e.historical_pending = next.syncFrom !== null;
    emitExtraction(store, 'sync_historical_data_changed', e);
  }
  e.updated_at = store.clock.iso();
  store.changed();
}

function settingsUpdate(
  store: Store,
  e: Extract,
  input: TemplateSettingsInput | undefined,
  base: ExtractSettings | undefined,
) {
  if (!input) return {};
  const template = templateOf(store, e.template_id);
  if (!template) throw conflict(`Extract ${e.id} has no template.`);
  const settings = resolveSettings(store, template, e.connection_id, input, base);
  checkHistoryDate(store, input.sync_historical_data);
  return { settings, ...(input.sync_historical_data !== undefined ? { syncFrom: input.sync_historical_data } : {}) };
}

export function extractRoutes(app: FastifyInstance, store: Store): void {
  const s = () => store.state;

  // Each filter takes one value or a comma-separated list (docs/contract-rules.md, Extracts, list).
  serve(
    app,
    'extracts.list',
    {
      config: {
        query: extractListQuery,
      },
    },
    async (request) => {
      const auth = requireBearer(store, request);
      const connections = intFilter(request, 'connection_id');
      const tables = intFilter(request, 'data_table_id');
      const sources = textFilter(request, 'datasource_name');
      const items = s()
        .extracts.filter(
          (e) =>
            e.workspace_id === auth.workspaceId &&
            (!connections || connections.has(e.connection_id)) &&
            (!tables || tables.has(e.data_table_id)) &&
            (!sources || sources.has(e.datasource_name)),
        )
        .sort(byId)
        .map((e) => extractView(store, e));
      return paginate(request, items, { mode: 'v3' });
    },
  );

  // Create is the one v3.1 extract operation (docs/contract-rules.md, Versioning 8); its errors keep the {detail}
  // envelope.
  serve(app, 'extracts.create', { config: { body: extractCreate } }, async (request, reply) => {
    const auth = requireBearer(store, request);
    const body = parseBody(extractCreate, request.body);
    const template = visibleTemplate(store, body.template_id);
    if (!template) throw invalid('template_id', `no extract template ${body.template_id}`);
    const account = usableAccount(store, auth.workspaceId, body.account_embedded_id, template, 'account_embedded_id');
    let table: DataTable | undefined;
    if (body.data_table_id != null) {
      table = workspaceTable(store, auth.workspaceId, body.data_table_id);
      if (!table) throw invalid('data_table_id', `no data table ${body.data_table_id} in this workspace`);
      const held = tableTemplate(store, table);
      if (held && held.id !== template.id)
        throw invalid('data_table_id', `data table ${table.id} holds template ${held.id}, not ${template.id}`);
    }
    const settings = resolveSettings(store, template, account.connection_id, body.template_settings ?? {});
    const syncFrom = body.template_settings?.sync_historical_data ?? null;
    checkHistoryDate(store, syncFrom);
    table ??= createTable(store, auth.workspaceId, template, template.title);
    const e = newExtract(store, account, template, table, {
      title: body.title ?? `${template.title} - ${account.title}`,
      schedule: body.schedule ?? 'daily',
      settings,
      syncFrom,
    });
    store.runExtract(e);
    store.changed();
    return reply.code(201).send(extractView(store, e));
  });

  serve<{ Params: IdParams }>(app, 'extracts.get', async (request) => {
    const auth = requireBearer(store, request);
    return extractView(store, workspaceExtract(store, auth.workspaceId, pathId(request.params.id)));
  });

  serve<{ Params: IdParams }>(app, 'extracts.replace', { config: { body: extractPut } }, async (request) => {
    const auth = requireBearer(store, request);
    const e = workspaceExtract(store, auth.workspaceId, pathId(request.params.id));
    const body = parseBody(extractPut, request.body);
    // A full replacement: settings not sent return to their defaults.
    const update = settingsUpdate(store, e, { sync_historical_data: null, ...body.template_settings }, undefined);
    applyChanges(store, e, { title: body.title, schedule: body.schedule, ...update });
    return extractView(store, e);
  });

  serve<{ Params: IdParams }>(app, 'extracts.update', { config: { body: extractPatch } }, async (request) => {
    const auth = requireBearer(store, request);
    const e = workspaceExtract(store, auth.workspaceId, pathId(request.params.id));
    const body = parseBody(extractPatch, request.body);
    const update = settingsUpdate(store, e, body.template_settings, settingsOf(store, e));
    applyChanges(store, e, { title: body.title, schedule: body.schedule, ...update });
    return extractView(store, e);
  });

  serve<{ Params: IdParams }>(app, 'extracts.run', async (request, reply) => {
    const auth = requireBearer(store, request);
    const e = workspaceExtract(store, auth.workspaceId, pathId(request.params.id));
    if (e.is_paused) throw conflict(`Extract ${e.id} is paused (${e.pause_reason ?? 'manual'}); unpause it first.`);
    if (!canDeliver(store, e))
      throw conflict(`Extract ${e.id} cannot run: its account is inactive or its connection was deleted.`);
    if (e.status === 'running') throw conflict(`Extract ${e.id} is already running.`);
    store.runExtract(e);
    store.changed();
    return reply.code(202).send(extractView(store, e));
  });

  serve<{ Params: { extract_id: string } }>(app, 'extracts.pause', async (request) => {
    const auth = requireBearer(store, request);
    const e = workspaceExtract(store, auth.workspaceId, pathId(request.params.extract_id));
    // Pausing a paused extract changes nothing (and keeps the first reason).
    if (!e.is_paused) {
      e.is_paused = true;
      e.pause_reason = 'manual';
      if (e.status === 'running') e.status = 'new';
      e.updated_at = store.clock.iso();
      emitExtraction(store, 'extraction_paused', e);
      store.changed();
    }
    return extractView(store, e);
  });

  serve<{ Params: { extract_id: string } }>(app, 'extracts.unpause', async (request) => {
    const auth = requireBearer(store, request);
    const e = workspaceExtract(store, auth.workspaceId, pathId(request.params.extract_id));
    if (!e.is_paused) return extractView(store, e);
    if (e.migrated_to_id)
      throw conflict(`Extract ${e.id} was migrated to extract ${e.migrated_to_id}; it stays paused.`);
    if (e.pause_reason && e.pause_reason !== 'manual')
      throw conflict(`Extract ${e.id} was paused by the service (${e.pause_reason}); it cannot be unpaused.`);
    e.is_paused = false;
    e.pause_reason = null;
    e.updated_at = store.clock.iso();
    emitExtraction(store, 'extraction_unpaused', e);
    // The schedule catches up at once: the unpaused extract starts a run.
    store.runExtract(e);
    store.changed();
    return extractView(store, e);
  });

  serve(app, 'extracts.migrateWide', { config: { body: extractMigrate } }, async (request, reply) => {
    const auth = requireBearer(store, request);
    const body = parseBody(extractMigrate, request.body);
    const source = s().extracts.find(
      (e) => e.id === body.migrated_from_extraction_id && e.workspace_id === auth.workspaceId,
    );
    if (!source)
      throw invalid('migrated_from_extraction_id', `no extract ${body.migrated_from_extraction_id} in this workspace`);
    if (source.migrated_to_id)
      throw conflict(`Extract ${source.id} was already migrated to extract ${source.migrated_to_id}.`);
    if (templateOf(store, source.template_id)?.is_wide_template)
      throw invalid('migrated_from_extraction_id', `extract ${source.id} already uses a wide template`);
    let target: ExtractTemplate | undefined;
    if (body.template_id !== undefined) {
      target = visibleTemplate(store, body.template_id);
      if (!target || !target.is_wide_template || target.datasource_name !== source.datasource_name) {
        throw invalid('template_id', `no wide ${source.datasource_name} template ${body.template_id}`);
      }
    } else {
      target = s().extract_templates.find(
        (t) => t.agency_id === null && t.is_wide_template && t.datasource_name === source.datasource_name,
      );
      if (!target) throw invalid('template_id', `no wide template for ${source.datasource_name}; pass template_id`);
    }
    const account = s().accounts.find((a) => a.id === source.account_entity_id);
    if (!account) throw invalid('migrated_from_extraction_id', `extract ${source.id} has no account`);
    // Omitted settings are copied from the source extract (docs/contract-rules.md, Extracts, migrate-wide): its
    // fields, where the wide template has them.
    const sourceSettings = settingsOf(store, source);
    const base: ExtractSettings = {
      ...sourceSettings,
      fields: sourceSettings.fields.filter((n) => target!.fields.some((f) => f.name === n)),
    };
    const settings = resolveSettings(store, target, source.connection_id, body.template_settings, base);
    const syncFrom =
      body.template_settings.sync_historical_data !== undefined
        ? body.template_settings.sync_historical_data
        : source.sync_historical_data;
    checkHistoryDate(store, syncFrom);
    const sourceTable = workspaceTable(store, auth.workspaceId, source.data_table_id);
    const table = createTable(store, auth.workspaceId, target, `${sourceTable?.title ?? source.title} (wide)`);
    const e = newExtract(store, account, target, table, {
      title: `${source.title} (wide)`,
      schedule: source.schedule ?? 'daily',
      settings,
      syncFrom,
      migratedFrom: source.id,
    });
    // The original stops; its table and rows stay queryable.
    source.migrated_to_id = e.id;
    if (!source.is_paused) {
      source.is_paused = true;
      source.pause_reason = 'migrated';
      emitExtraction(store, 'extraction_paused', source);
    } else {
      source.pause_reason = 'migrated';
    }
    if (source.status === 'running') source.status = 'new';
    source.updated_at = store.clock.iso();
    store.runExtract(e);
    store.changed();
    return reply.code(201).send(extractView(store, e));
  });
}
