import { SandboxError, notFound } from '../../errors.js';
import type { Store } from '../../store.js';
import type {
  Account,
  Connection,
  DataTable,
  DestinationConnection,
  Extract,
  ExtractTemplate,
  Field,
} from '../../types.js';

/**
 * The extraction area's additions to the shared model, by declaration merging. Extracts and
 * data tables may also be created by recipe builds, which know nothing of these fields: every
 * added field is optional and read through the defaults below.
 */
declare module '../../types.js' {
  interface State {
    /** rows delivered into each data table, by table id */
    data_table_rows: Record<string, DataRow[]>;
    loads: Load[];
    /** CSV files produced by load runs (the sandbox's stand-in for the destination) */
    load_exports: LoadExport[];
  }
  interface Extract {
    schedule?: string;
    template_settings?: ExtractSettings;
    /** set when the extract was created by migrate-wide */
    migrated_from_id?: number | null;
    /** set on the original once migrate-wide replaced it */
    migrated_to_id?: number | null;
    /** the history from `sync_historical_data` is still to be loaded by the next run */
    historical_pending?: boolean;
  }
  interface DataTable {
    /** the extraction template whose schema the table holds */
    template_id?: number;
    /** field names delivered to loads; absent means every field */
    selected_fields?: string[];
  }
  interface ExtractTemplate {
    /** connection whose dynamic schema a wide template was validated against */
    connection_id?: number | null;
  }
  interface DestinationConnection {
    error_text?: string | null;
    last_checked_at?: string | null;
  }
}

export interface ExtractSettings {
  fields: string[];
  additional_params: Record<string, unknown>;
  dynamic_fields: string[];
  custom_filters: unknown[];
}

export interface DataRow {
  extract_id: number;
  values: Record<string, string | number | null>;
}

export interface LoadRun {
  id: number;
  status: 'running' | 'completed' | 'failed';
  date_from: string | null;
  date_to: string | null;
  started_at: string;
  finished_at: string | null;
  rows: number | null;
  file: string | null;
  export_id: number | null;
  error: string | null;
}

export interface Load {
  id: number;
  workspace_id: number;
  title: string;
  data_table_id: number;
  destination_connection_id: number;
  schedule: string;
  is_paused: boolean;
  last_run: LoadRun | null;
  created_at: string;
  updated_at: string;
}

export interface LoadExport {
  id: number;
  load_id: number;
  workspace_id: number;
  file: string;
  csv: string;
  created_at: string;
}

/** A field as a provider declares it; the format may be missing. */
export interface DeclaredField {
  name: string;
  user_type: string;
  format?: string | undefined;
}

/** Metrics default to `float` when no format is declared (docs/contract-rules.md, Field object). */
export function fieldObject(f: DeclaredField, isDynamic: boolean): Field {
  return {
    name: f.name,
    format: f.format ?? (f.user_type === 'metric' ? 'float' : 'string'),
    user_type: f.user_type,
    is_dynamic: isDynamic,
  };
}

/**
 * Every data table carries these; they are not in template metadata (docs/contract-rules.md,
 * What the service does). They are always delivered, so they are not part of the selection.
 */
export const SYSTEM_FIELDS: Field[] = [
  { name: 'account_id', format: 'string', user_type: 'dimension', is_dynamic: false },
  { name: 'account_name', format: 'string', user_type: 'dimension', is_dynamic: false },
  { name: '__insert_date', format: 'iso_8601_date', user_type: 'dimension', is_dynamic: false },
];
export const SYSTEM_FIELD_NAMES = new Set(SYSTEM_FIELDS.map((f) => f.name));

/**
 * The per-connection dynamic schema (custom conversions and labels the account defines). The
 * metrics declare no format, so they show the contract's default.
 */
export function dynamicFieldsOf(connection: Connection): DeclaredField[] {
  if (connection.datasource_name === 'google_analytics_4') {
    return [
      { name: 'custom_event_signup', user_type: 'metric' },
      { name: 'custom_dimension_plan', user_type: 'dimension', format: 'string' },
    ];
  }
  return [
    { name: 'custom_conversion_purchase', user_type: 'metric' },
    { name: 'custom_conversion_lead', user_type: 'metric' },
    { name: 'custom_label', user_type: 'dimension', format: 'string' },
  ];
}

/** A 400 naming the field at fault, in the v3 `{detail}` envelope. */
export function invalid(field: string, message: string, code = 'invalid'): SandboxError {
  return new SandboxError(400, 'validation_error', `${field}: ${message}`, { fields: [{ field, code, message }] });
}

/** A well-formed request contradicting the resource's state (docs/contract-rules.md, Status meaning: 409). */
export function conflict(message: string): SandboxError {
  return new SandboxError(409, 'conflict', message);
}

// ---------------------------------------------------------------- lookups

/** Templates a workspace can use: the global ones and the agency's own. */
export function visibleTemplate(store: Store, id: number): ExtractTemplate | undefined {
  return store.state.extract_templates.find(
    (t) => t.id === id && (t.agency_id === null || t.agency_id === store.state.agency.id),
  );
}

export function templateOf(store: Store, id: number): ExtractTemplate | undefined {
  return store.state.extract_templates.find((t) => t.id === id);
}

export function workspaceAccount(store: Store, wsId: number, id: number): Account | undefined {
  return store.state.accounts.find((a) => a.id === id && a.workspace_id === wsId);
}

export function connectionOf(store: Store, id: number): Connection | undefined {
  return store.state.connections.find((c) => c.id === id);
}

export function workspaceExtract(store: Store, wsId: number, id: number): Extract {
  const e = store.state.extracts.find((x) => x.id === id && x.workspace_id === wsId);
  if (!e) throw notFound('Extract not found.');
  return e;
}

export function workspaceTable(store: Store, wsId: number, id: number): DataTable | undefined {
  return store.state.data_tables.find((t) => t.id === id && t.workspace_id === wsId);
}

export function requireDataSource(store: Store, name: string): void {
  if (!store.state.datasources.some((d) => d.name === name))
    throw new SandboxError(400, 'bad_request', `Unknown data source "${name}".`);
}

/** Settings of an extract; a recipe-created extract takes its template's fields. */
export function settingsOf(store: Store, e: Extract): ExtractSettings {
  if (e.template_settings) return e.template_settings;
  const template = templateOf(store, e.template_id);
  return {
    fields: template?.fields.map((f) => f.name) ?? [],
    additional_params: {},
    dynamic_fields: [],
    custom_filters: [],
  };
}

/** The field objects an extract delivers: its selected template fields, then its dynamic fields. */
export function extractFields(store: Store, e: Extract): Field[] {
  const template = templateOf(store, e.template_id);
  const settings = settingsOf(store, e);
  const fields = (template?.fields ?? []).filter((f) => settings.fields.includes(f.name));
  const connection = connectionOf(store, e.connection_id);
  const dynamic = connection ? dynamicFieldsOf(connection).filter((d) => settings.dynamic_fields.includes(d.name)) : [];
  return [...fields, ...dynamic.map((d) => fieldObject(d, true))];
}

/** A table's template: its own, else the one its first extract pulls with (recipe-created tables). */
export function tableTemplate(store: Store, table: DataTable): ExtractTemplate | undefined {
  if (table.template_id !== undefined) return templateOf(store, table.template_id);
  const first = store.state.extracts.find((e) => e.data_table_id === table.id);
  return first ? templateOf(store, first.template_id) : undefined;
}

/** Provider fields of a table: the template's, plus any dynamic field one of its extracts delivers. */
export function tableProviderFields(store: Store, table: DataTable): Field[] {
  const fields = [...(tableTemplate(store, table)?.fields ?? [])];
  const names = new Set(fields.map((f) => f.name));
  for (const e of store.state.extracts) {
    if (e.data_table_id !== table.id) continue;
    for (const f of extractFields(store, e)) {
      if (!names.has(f.name)) {
        names.add(f.name);
        fields.push(f);
      }
    }
  }
  return fields;
}

export function selectedFieldsOf(store: Store, table: DataTable): string[] {
  const provider = tableProviderFields(store, table).map((f) => f.name);
  return table.selected_fields ? provider.filter((n) => table.selected_fields!.includes(n)) : provider;
}

// ---------------------------------------------------------------- events

export function workspaceTitle(store: Store, wsId: number): string {
  return store.workspace(wsId)?.title ?? '';
}

/** Extraction shape (docs/contract-rules.md, Payload shapes). */
export { emitDataTable, emitExtraction } from '../../payloads.js';

export function emitDestinationConnection(store: Store, type: string, dc: DestinationConnection): void {
  store.emit(type, dc.workspace_id, 'DestinationConnection', {
    agency_title: store.state.agency.title,
    workspace_title: workspaceTitle(store, dc.workspace_id),
    destination_connection_id: String(dc.id),
    destination_connection_title: dc.title,
    destination_type: dc.destination_name,
    destination_status: dc.status,
  });
}

// ---------------------------------------------------------------- rows

/**
 * The history from `sync_historical_data` is still to be loaded: flagged by this area, or, for
 * an extract created elsewhere (a recipe build), until it first delivers.
 */
export function historyPending(e: Extract): boolean {
  return !!e.sync_historical_data && (e.historical_pending ?? !e.delivered);
}

const DAY_MS = 86_400_000;

export function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Entities (campaigns, ads) each run reports per day. */
const ENTITIES_PER_DAY = 2;
/** Days of the regular download window. */
const WINDOW_DAYS = 3;
/** History loaded at most this far back, to keep the sandbox small. */
const MAX_HISTORY_DAYS = 60;

function round(n: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

function valueFor(
  store: Store,
  field: Field,
  day: string,
  entity: number,
  account: Account | undefined,
): string | number {
  const r = store.random();
  switch (field.format) {
    case 'iso_8601_date':
      return day;
    case 'integer':
      return Math.floor(r * 5000);
    case 'currency':
      return round(r * 800, 2);
    case 'percent':
      return round(r * 0.2, 4);
    case 'duration':
      return Math.floor(r * 3600);
    case 'url':
      return `https://shop.example.com/${field.name}/${entity}`;
    case 'image_url':
      return `https://images.example.com/${field.name}/${entity}.png`;
    case 'string':
      if (field.name.endsWith('_id')) return `${account?.account_id ?? 'x'}-${entity}`;
      return `${field.name.replace(/_name$/, '').replace(/_/g, ' ')} ${entity}`;
    default:
      return round(r * 100, 2);
  }
}

/**
 * What a completed run delivers: rows of the regular window (the last days up to the sandbox's
 * today), plus the history from `sync_historical_data` when it is still to be loaded. A run
 * replaces the rows it re-reads for the same days.
 */
export function deliverRows(store: Store, e: Extract): number {
  const fields = extractFields(store, e);
  const account = store.state.accounts.find((a) => a.id === e.account_entity_id);
  const now = store.clock.now();
  const days = new Set<string>();
  for (let i = 0; i < WINDOW_DAYS; i++) days.add(isoDay(now - i * DAY_MS));
  if (historyPending(e)) {
    const from = Math.max(Date.parse(`${e.sync_historical_data}T00:00:00Z`), now - MAX_HISTORY_DAYS * DAY_MS);
    for (let t = from; t <= now; t += DAY_MS) days.add(isoDay(t));
    e.historical_pending = false;
  }
  const key = String(e.data_table_id);
  const insertedAt = store.clock.iso();
  const dateField = fields.find((f) => f.format === 'iso_8601_date');
  const kept = (store.state.data_table_rows[key] ?? []).filter(
    (row) => row.extract_id !== e.id || (dateField !== undefined && !days.has(String(row.values[dateField.name]))),
  );
  for (const day of [...days].sort()) {
    for (let entity = 1; entity <= ENTITIES_PER_DAY; entity++) {
      const values: DataRow['values'] = {};
      for (const f of fields) values[f.name] = valueFor(store, f, day, entity, account);
      values.account_id = account?.account_id ?? null;
      values.account_name = account?.title ?? null;
      values.__insert_date = insertedAt;
      kept.push({ extract_id: e.id, values });
    }
  }
  store.state.data_table_rows[key] = kept;
  return days.size * ENTITIES_PER_DAY;
}
