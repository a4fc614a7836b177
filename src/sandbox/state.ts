import { readFileSync, writeFileSync, renameSync } from 'node:fs';
import { randomBytes } from 'node:crypto';

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
  /** true once one of its runs has completed (contract: "an extraction has delivered") */
  delivered: boolean;
  last_run_at: string | null;
  sync_historical_data: string | null;
  created_at: string;
  updated_at: string;
}

/** Field object (template, extract, data table). */
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

/** The collections the core creates; areas add theirs to `State` by declaration merging. */
export interface CoreState {
  version: 1;
  seq: Record<string, number>;
  agency: Agency;
  users: User[];
  workspaces: Workspace[];
  tokens: Record<string, TokenRecord>;
  sessions: Record<string, { user_id: number }>;
  agency_recipes: AgencyRecipe[];
  enabled_recipes: Array<{ workspace_id: number; recipe_id: number }>;
  iframe_sessions: Record<string, { workspace_id: number; type: string | null; name: string | null; options: Record<string, boolean> }>;
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

// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface State extends CoreState {}

export interface SandboxOptions {
  host: string;
  port: number;
  seed: number;
  username: string;
  password: string;
  latencyMs: number;
  failRate: number;
  retryAfter: number;
  resetRate: number;
  buildSeconds: number;
  tokenTtl: number;
  webhookDelay: number;
  scale: number;
  stateFile: string | undefined;
}

export const defaultSandboxOptions: SandboxOptions = {
  host: '127.0.0.1',
  port: 4010,
  seed: 1,
  username: 'agency@sandbox.local',
  password: 'sandbox',
  latencyMs: 0,
  failRate: 0,
  retryAfter: 30,
  resetRate: 0,
  buildSeconds: 2,
  tokenTtl: 1800,
  webhookDelay: 1,
  scale: 1,
  stateFile: undefined,
};

/** mulberry32: a small seeded generator, so a seed gives the same data and the same faults. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The sandbox's clock; tests move it forward (link expiry, token lifetime). */
export class Clock {
  offsetMs = 0;
  now(): number {
    return Date.now() + this.offsetMs;
  }
  iso(): string {
    return new Date(this.now()).toISOString();
  }
  advance(ms: number): void {
    this.offsetMs += ms;
  }
}

export type EventListener = (event: SandboxEvent) => void;

export class Store {
  state: State;
  readonly clock = new Clock();
  /** data generation (seeded) */
  readonly random: () => number;
  /** fault injection (seeded separately, so that data does not depend on traffic) */
  readonly faultRandom: () => number;
  private readonly listeners: EventListener[] = [];
  /**
   * Starts a run of an extract in the background (set by the extraction area): a paused
   * extract, or one whose connection is deleted or account inactive, never delivers.
   */
  runExtract: (extract: Extract) => void = () => undefined;
  private saveTimer: NodeJS.Timeout | undefined;

  constructor(readonly opts: SandboxOptions, state: State) {
    this.state = state;
    this.random = seededRandom(opts.seed);
    this.faultRandom = seededRandom(opts.seed * 7919 + 17);
  }

  nextId(kind: string, start = 1): number {
    const n = (this.state.seq[kind] ?? start - 1) + 1;
    this.state.seq[kind] = n;
    return n;
  }

  secret(bytes = 24): string {
    return randomBytes(bytes).toString('hex');
  }

  workspace(id: number): Workspace | undefined {
    return this.state.workspaces.find((w) => w.id === id);
  }

  onEvent(listener: EventListener): void {
    this.listeners.push(listener);
  }

  /** Records an event the service would emit; the webhook area delivers it to subscribed endpoints. */
  emit(type: string, workspaceId: number | null, shape: string, data: Record<string, string | null>): SandboxEvent {
    const event: SandboxEvent = {
      id: `evt_${this.secret(8)}`,
      type,
      workspace_id: workspaceId,
      shape,
      data,
      occurred_at: this.clock.now(),
    };
    this.state.events.push(event);
    if (this.state.events.length > 5000) this.state.events.splice(0, this.state.events.length - 5000);
    for (const l of this.listeners) l(event);
    return event;
  }

  /** Marks the state changed; with --state it is written to the file shortly after. */
  changed(): void {
    const file = this.opts.stateFile;
    if (!file || this.saveTimer) return;
    this.saveTimer = setTimeout(() => {
      this.saveTimer = undefined;
      this.save();
    }, 200);
    this.saveTimer.unref();
  }

  save(): void {
    const file = this.opts.stateFile;
    if (!file) return;
    const tmp = `${file}.tmp`;
    writeFileSync(tmp, JSON.stringify(this.state));
    renameSync(tmp, file);
  }

  static load(file: string): State | undefined {
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as State;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  }
}

/** A fresh state: the core collections; each area creates its own in `init`. */
export function emptyState(): State {
  const core: CoreState = {
    version: 1,
    seq: {},
    agency: {
      id: 1,
      title: 'Sandbox Agency',
      whitelabel_title: 'Sandbox Data Hub',
      flags: { recipe_pipeline: true, external_auth_links: true, can_use_embedded_api: true },
    },
    users: [],
    workspaces: [],
    tokens: {},
    sessions: {},
    agency_recipes: [],
    enabled_recipes: [],
    iframe_sessions: {},
    datasources: [],
    connections: [],
    accounts: [],
    destinations: [],
    destination_connections: [],
    extract_templates: [],
    extracts: [],
    data_tables: [],
    events: [],
  };
  // Until each area's `init` has run, its collections are missing; `startSandbox` runs them all.
  return core as State;
}
