import { configureRecipe, getRecipe, type Recipe, type RecipeConfiguration } from '../api/recipes.js';
import type { Service } from '../api/service.js';
import { ApiError, ExitError, UsageError } from '../errors.js';
import { isTransient } from '../util/poll.js';
import { idText, jsonInteger } from '../util/json.js';
import type { ConfigurationDocument } from './schema.js';

/**
 * The configuration only grows (docs/contract-rules.md, Automated recipes v3.1, rule 2; Versioning 4): read
 * the recipe, keep its `connections[]` block unchanged, append additions. Removals are refused
 * here, before anything is sent, in the service's own words.
 */

export interface Addition {
  dataSource: string;
  /** absent: the data source alone (a file may list one before its connection) */
  connectionId?: string | undefined;
  accountIds: string[];
}

export interface Merged {
  config: RecipeConfiguration;
  /** something new is in it (or the history start moved): the PUT is worth sending */
  changed: boolean;
  addedAccounts: number;
}

const pairKey = (connectionId: unknown, ds: string) => `${idText(connectionId)}/${ds}`;

/** What a merge reads of the recipe it appends to. */
export type Configured = Pick<Recipe, 'state' | 'data_sources' | 'connections' | 'sync_from_date'>;

/** A recipe not created yet: nothing configured. */
export const NOT_CREATED: Configured = { state: null, data_sources: [], connections: [] };

export function mergeConfiguration(current: Configured, additions: Addition[], syncFrom?: string): Merged {
  const dataSources = [...(current.data_sources ?? [])];
  // The current block goes back as the service gave it, its ids written as the integers they are.
  const connections: RecipeConfiguration['connections'] = (current.connections ?? []).map((c) => ({
    ...c,
    connection_id: jsonInteger(idText(c.connection_id)),
    accounts: c.accounts.map((a) => ({ ...a, id: jsonInteger(idText(a.id)) })),
  }));
  let addedAccounts = 0;
  let changed = false;
  for (const add of additions) {
    if (!dataSources.includes(add.dataSource)) {
      dataSources.push(add.dataSource);
      changed = true;
    }
    if (add.connectionId === undefined) continue;
    let conn = connections.find(
      (c) => pairKey(c.connection_id, c.connection_data_source) === pairKey(add.connectionId, add.dataSource),
    );
    if (!conn) {
      conn = { connection_id: jsonInteger(add.connectionId), connection_data_source: add.dataSource, accounts: [] };
      connections.push(conn);
      changed = true;
    }
    const have = new Set(conn.accounts.map((a) => idText(a.id)));
    for (const id of add.accountIds) {
      if (have.has(id)) continue;
      have.add(id);
      conn.accounts.push({ id: jsonInteger(id) });
      addedAccounts++;
      changed = true;
    }
  }
  const config: RecipeConfiguration = { data_sources: dataSources, connections };
  const sync = syncFrom ?? current.sync_from_date ?? undefined;
  if (sync !== undefined) config.sync_from_date = sync;
  if (syncFrom !== undefined && syncFrom !== current.sync_from_date) changed = true;
  return { config, changed, addedAccounts };
}

/** The 409 codes of a configuration that leaves out something the recipe has (docs/contract-rules.md, Rules 2). */
export const REMOVAL_CONFLICT_CODES = new Set([
  'data_source_removal_not_allowed',
  'connection_removal_not_allowed',
  'account_removal_not_allowed',
]);

/** Attempts of one configure whose merge was overtaken by another writer. */
export const CONFIGURE_ATTEMPTS = 5;

export interface Appended {
  recipe: Recipe;
  /** a PUT was answered (by this run, or found done on a re-read) */
  changed: boolean;
  addedAccounts: number;
}

/**
 * PUTs the recipe's configuration plus `additions`, merged onto `current`. The body keeps all
 * that was read, so a removal 409 can only mean the recipe gained something after the read (a
 * concurrent configure appended): read again, merge again, send again, a bounded number of
 * times, like a retry on conflict. Removals the caller asked for are refused before this
 * (refuseRemovals), so they never reach the retry. With `retryTransient`, a lost or failed
 * answer is resolved the same way: configure repeated is harmless (docs/contract-rules.md, Retries 3).
 */
export async function appendConfiguration(
  api: Service,
  ws: string,
  id: string,
  current: Recipe,
  additions: Addition[],
  syncFrom: string | undefined,
  opts: { retryTransient?: boolean; onConflict?: (attempt: number) => void } = {},
): Promise<Appended> {
  let recipe = current;
  for (let attempt = 1; ; attempt++) {
    const merged = mergeConfiguration(recipe, additions, syncFrom);
    if (!merged.changed) return { recipe, changed: attempt > 1, addedAccounts: 0 };
    try {
      return {
        recipe: await configureRecipe(api, ws, id, merged.config),
        changed: true,
        addedAccounts: merged.addedAccounts,
      };
    } catch (err) {
      const overtaken = err instanceof ApiError && err.status === 409 && REMOVAL_CONFLICT_CODES.has(err.code ?? '');
      if (!(overtaken || (opts.retryTransient && isTransient(err))) || attempt >= CONFIGURE_ATTEMPTS) throw err;
      if (overtaken) opts.onConflict?.(attempt);
      recipe = await getRecipe(api, ws, id);
    }
  }
}

/** Refuses a desired configuration that drops anything configured, with the service's code and wording. */
export function refuseRemovals(current: Recipe, desired: ConfigurationDocument): void {
  const refuse = (code: string, message: string): never => {
    throw new ExitError('conflict', `${code}: ${message} (refused locally; nothing was sent)`);
  };
  const removedSources = (current.data_sources ?? []).filter((ds) => !desired.data_sources.includes(ds));
  if (removedSources.length > 0)
    refuse(
      'data_source_removal_not_allowed',
      `Data sources cannot be removed (${removedSources.join(', ')}); only new ones may be added.`,
    );
  const wanted = new Map(desired.connections.map((c) => [pairKey(c.connection_id, c.connection_data_source), c]));
  const removedConnections = (current.connections ?? []).filter(
    (c) => !wanted.has(pairKey(c.connection_id, c.connection_data_source)),
  );
  if (removedConnections.length > 0) {
    refuse(
      'connection_removal_not_allowed',
      `Connections cannot be removed; only new ones may be added: ${removedConnections.map((c) => `${idText(c.connection_id)} (${c.connection_data_source})`).join(', ')}.`,
    );
  }
  const removedAccounts = (current.connections ?? [])
    .map((c) => {
      const keep = new Set(
        wanted.get(pairKey(c.connection_id, c.connection_data_source))!.accounts.map((a) => idText(a.id)),
      );
      return { c, missing: c.accounts.map((a) => idText(a.id)).filter((id) => !keep.has(id)) };
    })
    .filter((x) => x.missing.length > 0);
  if (removedAccounts.length > 0) {
    refuse(
      'account_removal_not_allowed',
      `Accounts cannot be removed; only new ones may be added: ${removedAccounts.map(({ c, missing }) => `${missing.join(', ')} of connection ${idText(c.connection_id)} (${c.connection_data_source})`).join('; ')}.`,
    );
  }
}

/** The additions a desired configuration makes to the current one. */
export function additionsOf(desired: ConfigurationDocument): Addition[] {
  return [
    ...desired.data_sources.map((dataSource) => ({ dataSource, accountIds: [] })),
    ...desired.connections.map((c) => ({
      dataSource: c.connection_data_source,
      connectionId: idText(c.connection_id),
      accountIds: c.accounts.map((a) => idText(a.id)),
    })),
  ];
}

// ---------------------------------------------------------------- files

/** `a,b` and repeated flags as one list of trimmed, non-empty items. */
export function splitList(value: string | string[] | undefined): string[] {
  const parts = (Array.isArray(value) ? value : value === undefined ? [] : [value]).flatMap((v) =>
    String(v).split(','),
  );
  return parts.map((s) => s.trim()).filter(Boolean);
}

/**
 * A configuration from a `--file` document that passed the schema (./schema.ts): the service's
 * own configuration rules that need nothing but the file, checked before sending.
 */
export function configurationOf(c: ConfigurationDocument, flag: string): ConfigurationDocument {
  const problems: string[] = [];
  const seen = new Set<string>();
  c.connections.forEach((x, i) => {
    if (!c.data_sources.includes(x.connection_data_source)) {
      problems.push(
        `  connections[${i}].connection_data_source: "${x.connection_data_source}" is not in data_sources (connection_data_source_not_selected)`,
      );
    }
    const key = pairKey(x.connection_id, x.connection_data_source);
    if (seen.has(key))
      problems.push(
        `  connections[${i}]: connection ${x.connection_id} (${x.connection_data_source}) is listed twice (duplicate_connection)`,
      );
    seen.add(key);
    const ids = x.accounts.map((a) => a.id);
    ids.forEach((id, j) => {
      if (ids.indexOf(id) !== j) problems.push(`  connections[${i}].accounts[${j}].id: account ${id} is listed twice`);
    });
  });
  if (problems.length > 0) throw new UsageError(`${flag} is not a valid recipe configuration:\n${problems.join('\n')}`);
  return {
    data_sources: c.data_sources,
    connections: c.connections.map((x) => ({
      connection_id: x.connection_id,
      connection_data_source: x.connection_data_source,
      accounts: x.accounts.map((a) => ({ id: a.id })),
    })),
    ...(c.sync_from_date !== undefined && c.sync_from_date !== null ? { sync_from_date: c.sync_from_date } : {}),
  };
}
