import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import {
  customSettingOptions,
  extractTemplateCreate,
  templatePreview,
  templateSettings,
  templateValidation,
} from '../../../contract/requests.js';
import { forbidden, notFound } from '../../errors.js';
import { byId, paginate, parseBody, pathId, queryOf, requireBearer } from '../../http.js';
import type { Store } from '../../store.js';
import type { Account, Connection, ExtractTemplate, Field } from '../../types.js';
import { holdsPermission } from '../roles/model.js';
import {
  type DeclaredField,
  type ExtractSettings,
  dynamicFieldsOf,
  fieldObject,
  invalid,
  requireDataSource,
  visibleTemplate,
  workspaceAccount,
  connectionOf,
} from './model.js';
import { serve } from '../../operations.js';

export type TemplateSettingsInput = z.infer<typeof templateSettings>;

/**
 * Checks settings against a template (and, for dynamic fields, the account's connection) and
 * returns them complete. Wide templates need field validation; only they may select dimensions
 * (docs/contract-rules.md, Extraction templates, create; Extraction template), so a wide
 * selection must keep at least one dimension and one metric.
 */
export function resolveSettings(
  store: Store,
  template: ExtractTemplate,
  connectionId: number | undefined,
  input: TemplateSettingsInput,
  base?: ExtractSettings,
  prefix = 'template_settings',
): ExtractSettings {
  const known = new Set(template.fields.map((f) => f.name));
  let fields = input.fields ?? base?.fields ?? template.fields.map((f) => f.name);
  const unknown = fields.filter((n) => !known.has(n));
  if (unknown.length > 0)
    throw invalid(`${prefix}.fields`, `unknown fields for template ${template.id}: ${unknown.join(', ')}`);
  const dynamic = input.dynamic_fields ?? base?.dynamic_fields ?? [];
  let dynamicChosen: DeclaredField[] = [];
  if (dynamic.length > 0) {
    if (!template.is_wide_template)
      throw invalid(`${prefix}.dynamic_fields`, 'dynamic fields can be selected only with a wide template');
    const connection = connectionId === undefined ? undefined : connectionOf(store, connectionId);
    const schema = connection ? dynamicFieldsOf(connection) : [];
    const missing = dynamic.filter((n) => !schema.some((d) => d.name === n));
    if (missing.length > 0)
      throw invalid(`${prefix}.dynamic_fields`, `not in the connection's dynamic schema: ${missing.join(', ')}`);
    dynamicChosen = schema.filter((d) => dynamic.includes(d.name));
  }
  if (template.is_wide_template) {
    const chosen = [...template.fields.filter((f) => fields.includes(f.name)), ...dynamicChosen];
    if (!chosen.some((f) => f.user_type === 'dimension'))
      throw invalid(`${prefix}.fields`, 'a wide report needs at least one dimension');
    if (!chosen.some((f) => f.user_type === 'metric'))
      throw invalid(`${prefix}.fields`, 'a wide report needs at least one metric');
  } else {
    // Without dimension selection every dimension of the template is delivered.
    fields = [...fields, ...template.fields.filter((f) => f.user_type === 'dimension').map((f) => f.name)];
  }
  return {
    fields: template.fields.map((f) => f.name).filter((n) => fields.includes(n)),
    additional_params: input.additional_params ?? base?.additional_params ?? {},
    dynamic_fields: dynamic,
    custom_filters: input.custom_filters ?? base?.custom_filters ?? [],
  };
}

/**
 * The accounts of a validation (docs/contract-rules.md, Extraction templates, validation): non-empty,
 * existing, from one connection (and, here, of the template's data source).
 */
export function resolveAccounts(store: Store, wsId: number, template: ExtractTemplate, ids: number[]): Account[] {
  const missing = ids.filter((id) => {
    const a = workspaceAccount(store, wsId, id);
    return !a || a.datasource_name !== template.datasource_name;
  });
  if (missing.length > 0)
    throw invalid('accounts', `no such ${template.datasource_name} accounts in this workspace: ${missing.join(', ')}`);
  const accounts = ids.map((id) => workspaceAccount(store, wsId, id)!);
  const connections = [...new Set(accounts.map((a) => a.connection_id))];
  if (connections.length > 1)
    throw invalid(
      'accounts',
      `accounts must belong to one connection; these span connections ${connections.join(', ')}`,
    );
  return accounts;
}

function summary(t: ExtractTemplate) {
  return {
    id: t.id,
    title: t.title,
    datasource_name: t.datasource_name,
    sql_name: t.sql_name,
    is_wide_template: t.is_wide_template,
    is_global: t.agency_id === null,
    parent_id: t.parent_id,
    created_at: t.created_at,
  };
}

export function templateDetail(t: ExtractTemplate) {
  return { ...summary(t), connection_id: t.connection_id ?? null, fields: t.fields };
}

/** The compact form by id (docs/contract-rules.md, Extraction template). */
function compact(t: ExtractTemplate) {
  return { id: t.id, datasource_name: t.datasource_name, is_wide_template: t.is_wide_template };
}

/** Options a data source offers per account for custom settings (conversion actions). */
const CONVERSION_ACTIONS = ['Purchase', 'Sign-up', 'Add to cart', 'Lead form', 'Newsletter'];

function requireTemplate(store: Store, id: number): ExtractTemplate {
  const t = visibleTemplate(store, id);
  if (!t) throw notFound('Extract template not found.');
  return t;
}

/** The request's `connection_id`: a live connection of the workspace, of the data source `ds`. */
function requireConnection(store: Store, wsId: number, ds: string, id: number): Connection {
  const connection = connectionOf(store, id);
  if (!connection || connection.workspace_id !== wsId || connection.datasource_name !== ds || connection.deleted)
    throw invalid('connection_id', `no ${ds} connection ${id} in this workspace`);
  return connection;
}

function previewRows(store: Store, fields: Field[], accounts: Account[]) {
  const today = Date.parse(`${store.clock.iso().slice(0, 10)}T00:00:00Z`);
  const rows: Array<Record<string, string | number>> = [];
  for (let i = 0; i < 5; i++) {
    const account = accounts[i % Math.max(1, accounts.length)];
    const row: Record<string, string | number> = {};
    for (const f of fields) {
      if (f.format === 'iso_8601_date') row[f.name] = new Date(today - i * 86_400_000).toISOString().slice(0, 10);
      else if (f.user_type === 'metric')
        row[f.name] = f.format === 'integer' || f.format === 'duration' ? (i + 1) * 120 : (i + 1) * 12.5;
      else if (f.format === 'url' || f.format === 'image_url') row[f.name] = `https://example.com/${f.name}/${i + 1}`;
      else row[f.name] = `${account?.title ?? 'Sample'} ${f.name} ${i + 1}`;
    }
    rows.push(row);
  }
  return rows;
}

export function templateRoutes(app: FastifyInstance, store: Store): void {
  const s = () => store.state;

  serve<{ Params: { datasource_name: string } }>(app, 'extractTemplates.list', async (request) => {
    requireBearer(store, request);
    const ds = request.params.datasource_name;
    requireDataSource(store, ds);
    const items = s()
      .extract_templates.filter(
        (t) => t.datasource_name === ds && (t.agency_id === null || t.agency_id === s().agency.id),
      )
      .sort(byId)
      .map(summary);
    return paginate(request, items, { mode: 'v3' });
  });

  serve<{ Params: { datasource_name: string } }>(
    app,
    'extractTemplates.create',
    { config: { body: extractTemplateCreate } },
    async (request, reply) => {
      const auth = requireBearer(store, request);
      const ds = request.params.datasource_name;
      requireDataSource(store, ds);
      // Template creation needs EXTRACT.CREATE, granted by the caller's role in the workspace.
      if (!holdsPermission(store, auth.user, auth.workspaceId, 'EXTRACT', 'CREATE'))
        throw forbidden('You need the EXTRACT.CREATE permission to create extract templates.');
      const body = parseBody(extractTemplateCreate, request.body);
      const parent = s().extract_templates.find(
        (t) => t.id === body.parent_id && t.agency_id === null && t.datasource_name === ds,
      );
      if (!parent) throw invalid('parent_id', `no global ${ds} template ${body.parent_id}`);
      let dynamic: DeclaredField[] = [];
      if (body.connection_id !== undefined) {
        dynamic = dynamicFieldsOf(requireConnection(store, auth.workspaceId, ds, body.connection_id));
      }
      let fields: Field[];
      if (parent.allows_dimension_selection) {
        // Wide templates require connection_id and field validation (docs/contract-rules.md,
        // Extraction templates, create).
        if (body.connection_id === undefined)
          throw invalid('connection_id', 'required for a wide template', 'required');
        if (!body.fields)
          throw invalid('fields', 'required for a wide template: choose the dimensions and metrics', 'required');
        const unknown = body.fields.filter((n) => !parent.fields.some((f) => f.name === n));
        if (unknown.length > 0)
          throw invalid('fields', `unknown fields for template ${parent.id}: ${unknown.join(', ')}`);
        const dynamicNames = body.dynamic_fields ?? [];
        const missing = dynamicNames.filter((n) => !dynamic.some((d) => d.name === n));
        if (missing.length > 0)
          throw invalid('dynamic_fields', `not in the connection's dynamic schema: ${missing.join(', ')}`);
        fields = [
          ...parent.fields.filter((f) => body.fields!.includes(f.name)),
          ...dynamic.filter((d) => dynamicNames.includes(d.name)).map((d) => fieldObject(d, true)),
        ];
        if (!fields.some((f) => f.user_type === 'dimension'))
          throw invalid('fields', 'a wide report needs at least one dimension');
        if (!fields.some((f) => f.user_type === 'metric'))
          throw invalid('fields', 'a wide report needs at least one metric');
      } else {
        if (body.dynamic_fields?.length)
          throw invalid('dynamic_fields', 'dynamic fields can be selected only with a wide template');
        const chosen = body.fields ?? parent.fields.map((f) => f.name);
        const unknown = chosen.filter((n) => !parent.fields.some((f) => f.name === n));
        if (unknown.length > 0)
          throw invalid('fields', `unknown fields for template ${parent.id}: ${unknown.join(', ')}`);
        // Dimensions cannot be selected on such a parent: all of them stay.
        fields = parent.fields.filter((f) => f.user_type === 'dimension' || chosen.includes(f.name));
      }
      const id = store.nextId('extract_template');
      const template: ExtractTemplate = {
        id,
        datasource_name: ds,
        title: body.title,
        sql_name: `${ds}_${body.title
          .toLowerCase()
          .replace(/[^a-z0-9]+/g, '_')
          .replace(/^_|_$/g, '')}_${id}`,
        is_wide_template: parent.is_wide_template,
        parent_id: parent.id,
        allows_dimension_selection: false,
        agency_id: s().agency.id,
        fields,
        created_at: store.clock.iso(),
        connection_id: body.connection_id ?? null,
      };
      s().extract_templates.push(template);
      store.changed();
      return reply.code(201).send(templateDetail(template));
    },
  );

  serve<{ Params: { datasource_name: string; id: string } }>(app, 'extractTemplates.get', async (request) => {
    requireBearer(store, request);
    const { datasource_name: ds, id } = request.params;
    requireDataSource(store, ds);
    const t = visibleTemplate(store, pathId(id));
    if (!t || t.datasource_name !== ds) throw notFound('Extract template not found.');
    return templateDetail(t);
  });

  serve<{ Params: { template_id: string } }>(app, 'extractTemplates.getCompact', async (request) => {
    requireBearer(store, request);
    return compact(requireTemplate(store, pathId(request.params.template_id)));
  });

  serve<{ Params: { template_id: string } }>(
    app,
    'extractTemplates.validate',
    { config: { body: templateValidation } },
    async (request) => {
      const auth = requireBearer(store, request);
      const template = requireTemplate(store, pathId(request.params.template_id));
      const body = parseBody(templateValidation, request.body);
      const accounts = resolveAccounts(store, auth.workspaceId, template, body.accounts);
      const connectionId = accounts[0]!.connection_id;
      const settings = resolveSettings(store, template, connectionId, body.template_settings ?? {});
      checkHistoryDate(store, body.template_settings?.sync_historical_data);
      return {
        valid: true,
        template_id: template.id,
        connection_id: connectionId,
        accounts: accounts.map((a) => a.id),
        template_settings: { ...settings, sync_historical_data: body.template_settings?.sync_historical_data ?? null },
      };
    },
  );

  serve<{ Params: { template_id: string } }>(
    app,
    'extractTemplates.preview',
    { config: { body: templatePreview } },
    async (request) => {
      const auth = requireBearer(store, request);
      const template = requireTemplate(store, pathId(request.params.template_id));
      const body = parseBody(templatePreview, request.body);
      const accounts = body.accounts ? resolveAccounts(store, auth.workspaceId, template, body.accounts) : [];
      const settings = resolveSettings(store, template, accounts[0]?.connection_id, body.template_settings ?? {});
      const connection = accounts[0] ? connectionOf(store, accounts[0].connection_id) : undefined;
      const fields = [
        ...template.fields.filter((f) => settings.fields.includes(f.name)),
        ...(connection
          ? dynamicFieldsOf(connection)
              .filter((d) => settings.dynamic_fields.includes(d.name))
              .map((d) => fieldObject(d, true))
          : []),
      ];
      return { template_id: template.id, fields, rows: previewRows(store, fields, accounts) };
    },
  );

  serve<{ Params: { datasource_name: string } }>(
    app,
    'extractTemplates.customSettingOptions',
    { config: { body: customSettingOptions } },
    async (request) => {
      const auth = requireBearer(store, request);
      const ds = request.params.datasource_name;
      requireDataSource(store, ds);
      const body = parseBody(customSettingOptions, request.body);
      const connection = requireConnection(store, auth.workspaceId, ds, body.connection_id);
      const accounts = s().accounts.filter((a) => a.connection_id === connection.id);
      const unknown = body.account_ids.filter((r) => !accounts.some((a) => a.account_id === r));
      if (unknown.length > 0)
        throw invalid('account_ids', `not accounts of connection ${connection.id}: ${unknown.join(', ')}`);
      const search = (queryOf(request).search ?? '').trim().toLowerCase();
      const groups = body.account_ids.map((remote) => {
        const account = accounts.find((a) => a.account_id === remote)!;
        const options = CONVERSION_ACTIONS.map((title) => ({
          value: `${remote}:${title.toLowerCase().replace(/[^a-z]+/g, '_')}`,
          title,
        })).filter((o) => search === '' || o.title.toLowerCase().includes(search));
        return { account_id: remote, account_name: account.title, options };
      });
      return paginate(request, groups, { mode: 'v3' });
    },
  );
}

/** A history start in the future is refused. */
export function checkHistoryDate(
  store: Store,
  date: string | null | undefined,
  field = 'template_settings.sync_historical_data',
): void {
  if (date && date > store.clock.iso().slice(0, 10)) throw invalid(field, 'must not be in the future');
}
