import type { IdKind } from './ids.js';

/**
 * The sandbox's in-memory state: plain data, so that it can be saved to and loaded from a
 * file (--state). Each area of the service adds its own collections to `State` by
 * declaration merging in its own module and creates them in its `init`.
 */
export interface Agency {
  id: number;
  title: string;
  whitelabel_title: string;
  flags: {
    /** recipe pipeline: enabling agency recipes in workspaces, automated recipes */
    recipe_pipeline: boolean;
    /** external authentication links */
    external_auth_links: boolean;
    /** roles API */
    can_use_embedded_api: boolean;
  };
}

export interface User {
  id: number;
  email: string;
  password: string;
  first_name: string;
  last_name: string;
  is_active: boolean;
  is_agency_chief: boolean;
  is_agency_owner: boolean;
  workspace_ids: number[];
}

export interface Workspace {
  id: number;
  title: string;
  created_at: string;
}

export interface Dashboard {
  id: number;
  title: string;
  type: 'DATA' | 'VISUAL';
}

export interface AgencyRecipe {
  id: number;
  title: string;
  description: string;
  dashboards: Dashboard[];
}

export interface DataSource {
  name: string;
  title: string;
  category: string;
  /** data sources that cannot list accounts before a connection exists keep the one-step iframe flow */
  lists_accounts_before_connection: boolean;
  extraction_behavior?: ExtractionBehavior;
}

export interface Connection {
  id: number;
  workspace_id: number;
  datasource_name: string;
  title: string;
  created_at: string;
  deleted: boolean;
}

export interface Account {
  /** internal id, scoped to the workspace */
  id: number;
  workspace_id: number;
  connection_id: number;
  datasource_name: string;
  /** remote (platform) account id, stable across workspaces */
  account_id: string;
  title: string;
  /** null when none: v3 shows "", v3.1 shows null */
  currency: string | null;
  is_active: boolean;
  enabled_for_embedded_extraction: boolean;
  additional_params: Record<string, unknown>;
  item: Record<string, unknown>;
  created_at: string;
  updated_at: string;
  extraction_behavior?: ExtractionBehavior;
}

export interface Destination {
  name: string;
  title: string;
  /** recipes can be hosted on this destination */
  supports_recipes: boolean;
  /** can report whether tables exist (the extraction check) */
  reports_tables: boolean;
}

export interface DestinationConnection {
  id: number;
  workspace_id: number;
  destination_name: string;
  title: string;
  status: string;
  connection_params: Record<string, unknown>;
  created_at: string;
}

/**
 * How an account's (or a data source's) extractions behave in the sandbox, so that every
 * recipe outcome can be produced on purpose: `delivers` (default), `never_delivers` (runs,
 * never completes), `fails` (every run fails), `slow` (completes after several build steps).
 */
export type ExtractionBehavior = 'delivers' | 'never_delivers' | 'fails' | 'slow';

/**
 * An extraction (extract). Shared by the extraction area (which owns its API) and the recipe
 * area (whose builds create or reuse extracts and wait for them to deliver). Areas add fields
 * by declaration merging.
 */
export interface Extract {
  id: number;
  workspace_id: number;
  connection_id: number;
  datasource_name: string;
  /** internal account id (account_entity_id in responses) */
  account_entity_id: number;
  /** embedded account id (account_embedded_id in responses), nullable */
  account_embedded_id: number | null;
  /** extraction template the extract pulls with */
  template_id: number;
  data_table_id: number;
  title: string;
  is_paused: boolean;
  /** why it is paused: manual, connection_deleted, account_disabled, migrated, … */
  pause_reason: string | null;
  /** last run: new, running, completed, failed */
  status: string;
  /** true once one of its runs has completed (docs/contract-rules.md, Meaning of ready_to_work) */
  delivered: boolean;
  last_run_at: string | null;
  sync_historical_data: string | null;
  created_at: string;
  updated_at: string;
}

/** Field object of a template, an extract, a data table (docs/contract-rules.md, Field object). */
export interface Field {
  name: string;
  /** rendering hint: string, float, integer, iso_8601_date, currency, percent, duration, url, image_url */
  format: string;
  /** broad data type, e.g. dimension or metric */
  user_type: string;
  is_dynamic: boolean;
}

/**
 * An extraction template. Global templates (agency_id null) are the parents agency templates
 * are created from. Shared: recipes name the extraction templates each data source needs.
 */
export interface ExtractTemplate {
  id: number;
  datasource_name: string;
  title: string;
  sql_name: string;
  is_wide_template: boolean;
  /** parent global template, null for a global one */
  parent_id: number | null;
  /** wide parents allow selecting dimensions */
  allows_dimension_selection: boolean;
  /** null for global templates */
  agency_id: number | null;
  fields: Field[];
  created_at: string;
}

/** A data table: where extracts deliver rows. Shared like Extract. */
export interface DataTable {
  id: number;
  workspace_id: number;
  title: string;
  sql_name: string;
  datasource_name: string | null;
  created_at: string;
}

export interface TokenRecord {
  workspace_id: number;
  user_id: number;
  issued_at: number;
  last_used_at: number;
}

export interface SandboxEvent {
  id: string;
  type: string;
  workspace_id: number | null;
  /** aggregate class: Account, Extraction, Connection, Workspace, … */
  shape: string;
  data: Record<string, string | null>;
  occurred_at: number;
}

/** An iframe code's session: what `get_iframe_url` was asked for, and whether a connection was made with it. */
export interface IframeSession {
  workspace_id: number;
  type: string | null;
  name: string | null;
  options: Record<string, boolean>;
  /** when the code was issued (sandbox clock); absent in states saved before codes expired */
  issued_ms?: number;
  /** set once a connection was made through the code (codes are single use) */
  used_at?: string;
  connection_id?: number;
}

/** The collections the core creates; areas add theirs to `State` by declaration merging. */
export interface CoreState {
  version: 1;
  /** the last id given out per kind (see ids.ts) */
  seq: Partial<Record<IdKind, number>>;
  agency: Agency;
  users: User[];
  workspaces: Workspace[];
  tokens: Record<string, TokenRecord>;
  sessions: Record<string, { user_id: number }>;
  agency_recipes: AgencyRecipe[];
  enabled_recipes: Array<{ workspace_id: number; recipe_id: number }>;
  iframe_sessions: Record<string, IframeSession>;
  datasources: DataSource[];
  connections: Connection[];
  accounts: Account[];
  destinations: Destination[];
  destination_connections: DestinationConnection[];
  extract_templates: ExtractTemplate[];
  extracts: Extract[];
  data_tables: DataTable[];
  events: SandboxEvent[];
}

// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- an interface (not a type alias), so that each area can add its collections by declaration merging
export interface State extends CoreState {}
