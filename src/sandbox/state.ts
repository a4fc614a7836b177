import { readFileSync } from 'node:fs';
import { open, rename, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { randomBytes } from 'node:crypto';
import { LosslessNumber, parseJson, stringifyJson } from '../util/json.js';

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
  /**
   * Required in the X-Sandbox-Token header by the /_sandbox/ controls when set; generated at
   * start when the sandbox listens on an address other than loopback.
   */
  controlToken: string | undefined;
  /** Where problems that cannot be answered to a request go (a failed save); stderr by default. */
  warn: (message: string) => void;
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
  controlToken: undefined,
  warn: (message) => process.stderr.write(`${message}\n`),
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
  /** Changes made so far (bumped by `changed`), and how many of them the state file holds. */
  private changes = 0;
  private savedCount = 0;
  /** Requests waiting for their changes to reach the state file, with the change count they need. */
  private waiters: Array<{ count: number; resolve: () => void; reject: (err: Error) => void }> = [];
  private saving: Promise<void> | undefined;
  /** The last save failure reported, so that a lasting failure is reported once, not per change. */
  private saveFailure: string | undefined;
  /** The change count a failed save tried to write: no retry until a change comes after it. */
  private failedAt = -1;
  /** When expired tokens were last pruned (sandbox clock). */
  private prunedAt = this.clock.now();

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

  /**
   * Marks the state changed. With --state the change is saved right away, grouped with the
   * other changes made meanwhile; answers wait for it through `saved()`.
   */
  changed(): void {
    this.pruneTokensNowAndThen();
    if (!this.opts.stateFile) return;
    this.changes++;
    this.startSaving();
  }

  /** How many changes were made so far (with --state). */
  get changeCount(): number {
    return this.changes;
  }

  /** True while the last save failed and no later one succeeded. */
  get saveFailing(): boolean {
    return this.saveFailure !== undefined;
  }

  /** True while some change is not yet in the state file. */
  get unsaved(): boolean {
    return this.changes > this.savedCount;
  }

  /**
   * Resolves once every change made so far is in the state file (written and fsynced);
   * rejects when the save that should have carried them failed. Without --state, at once.
   */
  saved(): Promise<void> {
    if (!this.opts.stateFile || !this.unsaved) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.waiters.push({ count: this.changes, resolve, reject });
      this.startSaving();
    });
  }

  /**
   * Prunes expired tokens at most once a minute of the sandbox's clock. Until then an expired
   * token still answers "Token expired." rather than "Invalid token." (both 401).
   */
  private pruneTokensNowAndThen(): void {
    const now = this.clock.now();
    if (now - this.prunedAt < 60_000) return;
    this.prunedAt = now;
    this.pruneTokens();
  }

  /** Tokens the contract counts as expired (Authentication 2: 30 minutes after last use, --token-ttl here). */
  pruneTokens(): number {
    const cutoff = this.clock.now() - this.opts.tokenTtl * 1000;
    let pruned = 0;
    for (const [token, record] of Object.entries(this.state.tokens)) {
      if (record.last_used_at <= cutoff) {
        delete this.state.tokens[token];
        pruned++;
      }
    }
    return pruned;
  }

  /**
   * Group commit: one save at a time; the changes made while it runs wait for the next one,
   * which then serves all of them. A failed save is reported, never thrown (the sandbox keeps
   * serving), and is retried with the next change.
   */
  private startSaving(): void {
    if (this.saving) return;
    this.saving = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.saveLoop())
      .finally(() => {
        this.saving = undefined;
        // A change that arrived as the loop ended (or during a save that failed) gets its own round.
        if (this.unsaved && (this.waiters.length > 0 || this.changes > this.failedAt)) this.startSaving();
      });
  }

  private async saveLoop(): Promise<void> {
    while (this.unsaved) {
      const count = this.changes;
      try {
        // Serialized at once, so the text holds exactly the first `count` changes.
        await writeDurably(this.opts.stateFile!, stringifyJson(this.state));
      } catch (err) {
        const message = `Could not save the sandbox state to ${this.opts.stateFile}: ${(err as Error).message}. The sandbox keeps serving; the save is retried with the next change.`;
        if (message !== this.saveFailure) this.opts.warn(message);
        this.saveFailure = message;
        this.failedAt = count;
        const failed = this.waiters;
        this.waiters = [];
        for (const w of failed) w.reject(err as Error);
        return;
      }
      if (this.saveFailure) this.opts.warn(`The sandbox state is saved to ${this.opts.stateFile} again.`);
      this.saveFailure = undefined;
      this.savedCount = count;
      const done = this.waiters.filter((w) => w.count <= count);
      this.waiters = this.waiters.filter((w) => w.count > count);
      for (const w of done) w.resolve();
    }
  }

  /** Waits for the save under way and saves what is left (on close). Reports, never throws. */
  async flush(): Promise<void> {
    await this.saved().catch(() => undefined);
  }

  /** The saved state, read without losing big integers in free-form fields. */
  static load(file: string): State | undefined {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
    const state = parseJson(text) as State;
    return text.includes('"isLosslessNumber"') ? (reviveBigIntegers(state) as State) : state;
  }
}

/**
 * Earlier versions saved a big integer of a free-form field as
 * `{"value": "…", "isLosslessNumber": true}`; such a file loads back into the integer.
 */
function reviveBigIntegers(value: unknown): unknown {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = reviveBigIntegers(value[i]);
  } else if (value !== null && typeof value === 'object' && !(value instanceof LosslessNumber)) {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record);
    if (keys.length === 2 && record.isLosslessNumber === true && typeof record.value === 'string' && /^-?\d+$/.test(record.value)) {
      return new LosslessNumber(record.value);
    }
    for (const key of keys) record[key] = reviveBigIntegers(record[key]);
  }
  return value;
}

/**
 * Replaces `file` so that a crash at any moment leaves either the old or the new text: write
 * a temporary file beside it, fsync it, rename it over, fsync the folder (the rename itself).
 * The file holds passwords and tokens: readable by its owner only.
 */
async function writeDurably(file: string, text: string): Promise<void> {
  const tmp = `${file}.tmp`;
  const handle = await open(tmp, 'w', 0o600);
  try {
    await handle.writeFile(text);
    await handle.sync();
  } catch (err) {
    await handle.close();
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
  await handle.close();
  await rename(tmp, file);
  try {
    const dir = await open(dirname(file), 'r');
    try {
      await dir.sync();
    } finally {
      await dir.close();
    }
  } catch {
    // Some systems (Windows) cannot open or fsync a folder; the rename is still atomic there.
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
