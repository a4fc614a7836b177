import { listAccountsV3, setAccountsExtraction, type AccountV3 } from '../api/accounts.js';
import { listConnections } from '../api/connections.js';
import { getExtract, listExtracts, runExtract, setExtractPaused, type Extract } from '../api/extracts.js';
import { getLoad, listLoads, runLoad, setLoadPaused, type Load } from '../api/loads.js';
import { originOf } from '../api/path.js';
import { buildRecipe, getRecipe, listRecipes, resetupRecipe, type Recipe } from '../api/recipes.js';
import type { Service } from '../api/service.js';
import { ApiError, ExitError, InterruptedError, OutcomeUnknownError } from '../errors.js';
import { collect } from '../util/collect.js';
import { idText } from '../util/json.js';
import { UnreachableStopError } from '../util/poll.js';
import { pool } from './pool.js';

/**
 * Bulk actions: one verb (`extracts run`, `recipes build`, …) on the items of many workspaces.
 * The items of every workspace are read first and selected (ids, data source, state, `failed`),
 * so that the caller can say what it is about to do and ask; then each is acted on, the
 * workspaces at the fleet's concurrency, the items of one workspace in turn. A write whose
 * answer was lost is never simply repeated: the item is read again first (docs/contract-rules.md,
 * Retries 3), and a repeat refused with 409 (a run or build already under way) is the first one
 * having landed. Once the run has found the service unreachable, or was stopped, no write starts.
 */

export type BulkAction =
  | 'extracts.run'
  | 'extracts.pause'
  | 'extracts.unpause'
  | 'loads.run'
  | 'loads.pause'
  | 'loads.unpause'
  | 'recipes.build'
  | 'recipes.resetup'
  | 'accounts.enable'
  | 'accounts.disable';

export type BulkNoun = 'extract' | 'load' | 'recipe' | 'account';

const NOUNS: Record<string, BulkNoun> = { extracts: 'extract', loads: 'load', recipes: 'recipe', accounts: 'account' };

export const nounOf = (action: BulkAction): BulkNoun => NOUNS[action.split('.')[0]!]!;

/** What selects the items; every part given must hold. */
export interface BulkSelection {
  /** item ids (as text) */
  ids?: string[] | undefined;
  /** extracts and accounts: these data sources (accounts: required, their connections are listed per data source) */
  dataSources?: string[] | undefined;
  /** accounts: these connections only */
  connections?: string[] | undefined;
  /** recipes: this state (the list's filter) */
  state?: string | undefined;
  /** recipes: this template (the list's filter) */
  templateId?: string | undefined;
  /** only the items whose last run or build failed */
  failed?: boolean | undefined;
}

export interface BulkItem {
  workspace: string;
  /** the id as text; `rawId` as the service sent it */
  id: string;
  rawId: unknown;
  title: string;
  /** whether its last run or build failed; null when the service's answer does not say */
  failed: boolean | null;
  /** the start of its last run or build as read, against which a lost answer is resolved */
  lastStart: string | null;
  /** its run or build was under way when read */
  running: boolean;
  /** accounts: their connection, written to in one request per connection */
  connection?: string | undefined;
}

/** A workspace's items as selected, or why it could not be read. */
export interface WorkspaceItems {
  workspace: string;
  items: BulkItem[];
  /** with `failed`: items left out because the service's answer does not say how their last run ended */
  untold: number;
  /** the ids the selection named that this workspace has, failed or not */
  found: string[];
  error?: unknown;
}

/** Reads the items of each workspace and keeps those the selection names. */
export async function readBulkItems(
  api: Service,
  action: BulkAction,
  workspaces: string[],
  selection: BulkSelection,
  opts: { concurrency: number; read?: ((ws: string) => void) | undefined },
): Promise<WorkspaceItems[]> {
  const ids = selection.ids && new Set(selection.ids);
  return pool(workspaces, opts.concurrency, async (ws) => {
    try {
      const all = await readItems(api, nounOf(action), ws, selection);
      const named = all.filter((i) => !ids || ids.has(i.id));
      const items = selection.failed ? named.filter((i) => i.failed === true) : named;
      const untold = selection.failed ? named.filter((i) => i.failed === null).length : 0;
      return { workspace: ws, items, untold, found: ids ? named.map((i) => i.id) : [] };
    } catch (err) {
      // A service found unreachable here is sent no write at all.
      api.noteFailure(err);
      return { workspace: ws, items: [], untold: 0, found: [], error: err };
    } finally {
      opts.read?.(ws);
    }
  });
}

/** The ids the selection named that no workspace read has (those of workspaces that could not be read may be there). */
export function idsNotFound(selection: BulkSelection, read: WorkspaceItems[]): string[] {
  if (!selection.ids || read.some((w) => w.error !== undefined)) return [];
  // An id left out by --failed was found: it is not missing.
  const found = new Set(read.flatMap((w) => w.found));
  return selection.ids.filter((id) => !found.has(id));
}

async function readItems(api: Service, noun: BulkNoun, ws: string, sel: BulkSelection): Promise<BulkItem[]> {
  const item = (rawId: unknown, title: unknown, rest: Omit<BulkItem, 'workspace' | 'id' | 'rawId' | 'title'>) => ({
    workspace: ws,
    id: idText(rawId),
    rawId,
    title: typeof title === 'string' ? title : '',
    ...rest,
  });
  if (noun === 'extract') {
    const extracts = await collect(listExtracts(api, ws, { datasourceNames: sel.dataSources }));
    return extracts.map((e) =>
      item(e.id, e.title, {
        failed: extractFailed(e),
        lastStart: e.last_run_at ?? null,
        running: e.status === 'running',
      }),
    );
  }
  if (noun === 'load') {
    const loads = await collect(listLoads(api, ws));
    return loads.map((l) =>
      item(l.id, l.title, {
        failed: loadFailed(l),
        lastStart: l.last_run ? idText(l.last_run.id) : null,
        running: l.last_run?.status === 'running',
      }),
    );
  }
  if (noun === 'recipe') {
    const recipes = await collect(listRecipes(api, ws, { state: sel.state, templateId: sel.templateId }));
    return recipes.map((r) =>
      item(r.recipe_id, r.title, {
        failed: r.state === 'failed',
        lastStart: r.last_build_at ?? null,
        running: building(r),
      }),
    );
  }
  return readAccounts(api, ws, sel, item);
}

/**
 * The contract shows no outcome of an extract's runs (its Extract: "other fields: not shown"):
 * what tells it is the `status` the vendor's documentation adds (`failed`), as `extracts run
 * --wait` reads it. An answer without it does not say: null, never a guess.
 */
function extractFailed(e: Extract): boolean | null {
  return typeof e.status === 'string' ? e.status === 'failed' : null;
}

/** Loads likewise (the contract shows their id alone): the vendor's `last_run.status`; no run yet, no failure. */
function loadFailed(l: Load): boolean | null {
  if (l.last_run === null) return false;
  return typeof l.last_run?.status === 'string' ? l.last_run.status === 'failed' : null;
}

const building = (r: Recipe) => r.state === 'extracting_data' || r.state === 'building_dependencies';

/**
 * Accounts, per data source: the connections of each, then each connection's accounts (the v3
 * list, which carries the extraction flag and the title). An account has no run of its own:
 * its last run is its extracts' (the contract ties an extract to its account by
 * `account_embedded_id`), failed when one of them failed.
 */
async function readAccounts(
  api: Service,
  ws: string,
  sel: BulkSelection,
  item: (rawId: unknown, title: unknown, rest: Omit<BulkItem, 'workspace' | 'id' | 'rawId' | 'title'>) => BulkItem,
): Promise<BulkItem[]> {
  const only = sel.connections && new Set(sel.connections);
  const out: BulkItem[] = [];
  let runs: Map<string, Array<boolean | null>> | undefined;
  if (sel.failed) {
    runs = new Map();
    for (const e of await collect(listExtracts(api, ws, { datasourceNames: sel.dataSources }))) {
      const key = idText(e.account_embedded_id);
      runs.set(key, [...(runs.get(key) ?? []), extractFailed(e)]);
    }
  }
  for (const ds of sel.dataSources ?? []) {
    const connections = (await collect(listConnections(api, ws, ds))).filter((c) => !only || only.has(idText(c.id)));
    for (const c of connections) {
      const accounts: AccountV3[] = await collect(listAccountsV3(api, ws, idText(c.id)));
      for (const a of accounts) {
        const told = runs?.get(idText(a.id)) ?? [];
        const failed = told.includes(true) ? true : told.includes(null) ? null : false;
        out.push({ ...item(a.id, a.title, { failed, lastStart: null, running: false }), connection: idText(c.id) });
      }
    }
  }
  return out;
}

// ---------------------------------------------------------------- acting

/** One row per item acted on, or that could not be (`bulk --json` prints what the command makes of these). */
export interface BulkRow {
  workspace: string;
  id: string;
  rawId: unknown;
  title: string;
  /** ok, failed, interrupted, not started, not found */
  outcome: 'ok' | 'failed' | 'interrupted' | 'not started' | 'not found';
  /** ok: the state the item reached (running, paused, extracting_data, enabled, …) */
  state: string | null;
  /** why it did not reach it: the error thrown, or one saying why it was not started */
  error: unknown;
  /** what may have landed when it was stopped under way */
  landed?: 'maybe' | undefined;
}

export interface BulkActOptions {
  concurrency: number;
  /** `loads run --from --to` */
  range?: { from: string; to: string } | undefined;
  /** Ctrl-C, or output gone before any change: what is under way ends, the rest is not started */
  signal?: AbortSignal | undefined;
  /** told as a workspace's items are begun and ended */
  begun?: ((ws: string, item: BulkItem) => void) | undefined;
  ended?: ((ws: string, rows: BulkRow[]) => void) | undefined;
}

/** A lost answer is resolved by reading the item again, a bounded number of times. */
const OUTCOME_ATTEMPTS = 5;

export async function actOnBulkItems(
  api: Service,
  action: BulkAction,
  read: WorkspaceItems[],
  opts: BulkActOptions,
): Promise<BulkRow[]> {
  const todo = read.filter((w) => w.items.length > 0);
  const perWorkspace = await pool(todo, opts.concurrency, async (w) => {
    const rows =
      nounOf(action) === 'account' ? await actOnAccounts(api, action, w, opts) : await actInTurn(api, action, w, opts);
    opts.ended?.(w.workspace, rows);
    return rows;
  });
  return perWorkspace.flat();
}

const rowOf = (i: BulkItem): BulkRow => ({
  workspace: i.workspace,
  id: i.id,
  rawId: i.rawId,
  title: i.title,
  outcome: 'ok',
  state: null,
  error: null,
});

/** The row of work about to begin, when it must not: stopped, or a service found unreachable. */
function mayNotBegin(api: Service, r: BulkRow, opts: BulkActOptions): BulkRow | undefined {
  if (opts.signal?.aborted) return { ...r, outcome: 'not started', error: new InterruptedError() };
  const found = api.unreachable;
  if (!found) return undefined;
  const err = new UnreachableStopError('not started', found, originOf(api.client.baseUrl), 'nothing was sent for it');
  return { ...r, outcome: 'not started', error: err };
}

/** The row of work that ended in an error: stopped under way (it may have landed), or failed. */
function failedRow(api: Service, r: BulkRow, err: unknown, opts: BulkActOptions): BulkRow {
  api.noteFailure(err);
  if (opts.signal?.aborted) return { ...r, outcome: 'interrupted', error: new InterruptedError(), landed: 'maybe' };
  return { ...r, outcome: 'failed', error: err };
}

async function actInTurn(api: Service, action: BulkAction, w: WorkspaceItems, opts: BulkActOptions) {
  const rows: BulkRow[] = [];
  for (const i of w.items) {
    const r = rowOf(i);
    const stopped = mayNotBegin(api, r, opts);
    if (stopped) {
      rows.push(stopped);
      continue;
    }
    opts.begun?.(w.workspace, i);
    try {
      rows.push({ ...r, state: await actOn(api, action, i, opts) });
    } catch (err) {
      rows.push(failedRow(api, r, err, opts));
    }
  }
  return rows;
}

/** One item's write; the state it reached. */
async function actOn(api: Service, action: BulkAction, i: BulkItem, opts: BulkActOptions): Promise<string> {
  const ws = i.workspace;
  switch (action) {
    case 'extracts.run':
      return startOnce(
        async () => String((await runExtract(api, ws, i.id)).status ?? 'running'),
        async () => {
          const e = await getExtract(api, ws, i.id);
          return startedSince(i, e.last_run_at ?? null, e.status === 'running') ? 'running' : undefined;
        },
      );
    case 'loads.run':
      return startOnce(
        async () => String((await runLoad(api, ws, i.id, opts.range)).last_run?.status ?? 'running'),
        async () => {
          const l = await getLoad(api, ws, i.id);
          const run = l.last_run ? idText(l.last_run.id) : null;
          return startedSince(i, run, l.last_run?.status === 'running') ? String(l.last_run?.status) : undefined;
        },
      );
    case 'recipes.build':
    case 'recipes.resetup': {
      const start = action === 'recipes.build' ? buildRecipe : resetupRecipe;
      return startOnce(
        async () => String((await start(api, ws, i.id)).state),
        async () => {
          const r = await getRecipe(api, ws, i.id);
          return startedSince(i, r.last_build_at ?? null, building(r)) ? String(r.state) : undefined;
        },
      );
    }
    // Pausing and unpausing are repeatable: the client repeats a lost answer itself.
    case 'extracts.pause':
    case 'extracts.unpause':
      await setExtractPaused(api, ws, i.id, action === 'extracts.pause');
      return action === 'extracts.pause' ? 'paused' : 'unpaused';
    case 'loads.pause':
    case 'loads.unpause':
      await setLoadPaused(api, ws, i.id, action === 'loads.pause');
      return action === 'loads.pause' ? 'paused' : 'unpaused';
    default:
      throw new Error(`not an action on one item: ${action}`);
  }
}

/**
 * Whether a run or build started since the item was read: its last start moved, or it is under
 * way now when it was not then.
 */
function startedSince(i: BulkItem, lastStart: string | null, running: boolean): boolean {
  return (lastStart !== null && lastStart !== i.lastStart) || (running && !i.running);
}

/**
 * Starts a run or build once. After a lost answer the item is read again: started since, the
 * write landed; otherwise it is sent again, and a 409 to that repeat means one is under way
 * (docs/contract-rules.md, Retries 3: a repeated build answers 409 while one runs).
 */
async function startOnce(write: () => Promise<string>, landed: () => Promise<string | undefined>): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (err) {
      if (attempt > 1 && err instanceof ApiError && err.status === 409) return 'running';
      if (!(err instanceof OutcomeUnknownError) || attempt >= OUTCOME_ATTEMPTS) throw err;
      const state = await landed();
      if (state !== undefined) return state;
    }
  }
}

/** Accounts: one request per connection (all or nothing), repeatable; a row per account. */
async function actOnAccounts(api: Service, action: BulkAction, w: WorkspaceItems, opts: BulkActOptions) {
  const enabled = action === 'accounts.enable';
  const byConnection = new Map<string, BulkItem[]>();
  for (const i of w.items) byConnection.set(i.connection!, [...(byConnection.get(i.connection!) ?? []), i]);
  const rows: BulkRow[] = [];
  for (const [connection, items] of byConnection) {
    const first = mayNotBegin(api, rowOf(items[0]!), opts);
    if (first) {
      rows.push(...items.map((i) => ({ ...first, ...pick(i) })));
      continue;
    }
    for (const i of items) opts.begun?.(w.workspace, i);
    try {
      const updated = await setAccountsExtraction(
        api,
        w.workspace,
        connection,
        items.map((i) => i.id),
        enabled,
      );
      const flags = new Map(updated.map((a) => [idText(a.id), a.enabled_for_embedded_extraction]));
      rows.push(
        ...items.map((i) => {
          const flag = flags.get(i.id) ?? enabled;
          return { ...rowOf(i), state: flag ? 'enabled' : 'disabled' };
        }),
      );
    } catch (err) {
      rows.push(...items.map((i) => failedRow(api, rowOf(i), err, opts)));
    }
  }
  return rows;
}

const pick = (i: BulkItem) => ({ workspace: i.workspace, id: i.id, rawId: i.rawId, title: i.title });

/** Rows of what could not be acted on before any write: workspaces not read, ids found nowhere. */
export function unreadRows(read: WorkspaceItems[], notFound: string[], noun: BulkNoun): BulkRow[] {
  return [
    ...read
      .filter((w) => w.error !== undefined)
      .map((w): BulkRow => ({
        workspace: w.workspace,
        id: '',
        rawId: null,
        title: '',
        outcome: 'failed',
        state: null,
        error: w.error,
      })),
    ...notFound.map((id): BulkRow => ({
      workspace: '',
      id,
      rawId: id,
      title: '',
      outcome: 'not found',
      state: null,
      error: new ExitError('notFound', `${noun} ${id} is in none of the workspaces read`),
    })),
  ];
}
