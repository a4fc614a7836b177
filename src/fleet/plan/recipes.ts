import { suggest } from '../../util/suggest.js';
import { listRecipes, type Recipe, type RecipeTemplate } from '../../api/recipes.js';
import { BUILDING_STATES } from '../../contract/recipes.js';
import type { Service } from '../../api/service.js';
import { listAccounts, listAccountsV3, remoteIdLookup, type AccountV31 } from '../../api/accounts.js';
import { resolveAccounts, UnresolvedAccountsError } from '../../accounts/select.js';
import { AmbiguousConnectionError, chooseConnection, NoConnectionError } from '../../recipes/resolve.js';
import { ApiError } from '../../errors.js';
import { collect } from '../../util/collect.js';
import { idText, jsonInteger } from '../../util/json.js';
import { mergeConfiguration, NOT_CREATED, type Addition, type Configured } from '../../recipes/configuration.js';
import { resolveTemplate } from '../../recipes/deploy.js';
import type { SourceSpec } from '../../recipes/spec.js';
import { type RecipeEntry } from '../file.js';

import type { Change, Blocked, Note, WorkspacePlan } from './types.js';

/** A template read by id or title, made once for the fleet; a failure is each workspace's own. */
export function templateReader(api: Service, ref: string): (ws: string) => Promise<RecipeTemplate> {
  let shared: Promise<RecipeTemplate> | undefined;
  return async (ws) => {
    const attempt = (shared ??= resolveTemplate(api, ws, ref));
    try {
      return await attempt;
    } catch (err) {
      if (shared === attempt) shared = undefined;
      throw err;
    }
  };
}

/** Planning a fleet file's recipes in one workspace. */

export interface ConnectionAccounts {
  accounts: AccountV31[];
  byId: Map<string, AccountV31>;
  remoteOf: (a: AccountV31) => string | undefined;
}

/** The accounts of one connection, with their remote ids (joined through the v3 list, as deploy does). */
export function accountReader(api: Service, ws: string): (connectionId: string) => Promise<ConnectionAccounts> {
  const cache = new Map<string, Promise<ConnectionAccounts>>();
  return (connectionId) => {
    let read = cache.get(connectionId);
    if (!read) {
      read = Promise.all([
        collect(listAccounts(api, ws, connectionId)),
        collect(listAccountsV3(api, ws, connectionId)),
      ]).then(([accounts, v3]) => ({
        accounts,
        byId: new Map(accounts.map((a) => [idText(a.id), a])),
        remoteOf: remoteIdLookup(v3),
      }));
      cache.set(connectionId, read);
    }
    return read;
  };
}

/** How an account of a configured recipe is named in a file: by remote id, which is the same in every workspace. */
export function accountName(id: string, accounts: ConnectionAccounts): string {
  const a = accounts.byId.get(id);
  const remote = a ? accounts.remoteOf(a) : undefined;
  return remote !== undefined ? `remote:${remote}` : id;
}

/** A selector already met by an account the recipe has. */
function metBy(selector: string, configured: string[], accounts: ConnectionAccounts): string | undefined {
  const s = selector.trim();
  if (s === 'all-active') return undefined;
  if (s.startsWith('remote:')) {
    const remote = s.slice('remote:'.length);
    return configured.find((id) => {
      const a = accounts.byId.get(id);
      return a !== undefined && accounts.remoteOf(a) === remote;
    });
  }
  if (configured.includes(s)) return s;
  return (
    configured.find((id) => accounts.byId.get(id)?.title === s) ??
    configured.find((id) => accounts.byId.get(id)?.title.toLowerCase() === s.toLowerCase())
  );
}

interface SourcePlan {
  source: SourceSpec;
  addition: Addition | undefined;
  added: string[];
}

async function planSource(
  api: Service,
  ws: string,
  entry: RecipeEntry,
  s: SourceSpec,
  existing: Recipe | undefined,
  readAccounts: (c: string) => Promise<ConnectionAccounts>,
  blocked: Blocked[],
  notes: Note[],
): Promise<SourcePlan | undefined> {
  const name = entry.template;
  const block = (code: string, message: string) => blocked.push({ resource: 'recipe', name, code, message });
  const configuredConnections = (existing?.connections ?? []).filter((c) => c.connection_data_source === s.dataSource);
  // Deploy's rule (recipes/resolve.ts): named, the recipe's own, the only one, the one where the accounts resolve.
  let connectionId: string;
  try {
    connectionId = (await chooseConnection(api, ws, s.dataSource, s.accounts, s.connection, existing?.connections))
      .connectionId;
  } catch (err) {
    if (err instanceof NoConnectionError) {
      block(
        'connection_not_found',
        `workspace ${ws} has no ${s.dataSource} connection; connect it first (\`${suggest(['iframe-url', '--type', 'datasource', '--name', s.dataSource], { workspace: ws })}\`)`,
      );
      return undefined;
    }
    if (!(err instanceof AmbiguousConnectionError)) throw err;
    block(
      'connection_ambiguous',
      `${err.message}; name one (${err.choices}) in the file: an entry of this template for workspace ${ws} alone (\`workspaces: [${ws}]\`) whose ${s.dataSource} source has \`connection: ${err.suggested}\`, and ${ws} left out of the other entry's workspaces`,
    );
    return undefined;
  }
  const configured = (configuredConnections.find((c) => idText(c.connection_id) === connectionId)?.accounts ?? []).map(
    (a) => idText(a.id),
  );
  let accounts: ConnectionAccounts;
  try {
    accounts = await readAccounts(connectionId);
  } catch (err) {
    if (!(err instanceof ApiError && err.status === 404 && configured.length > 0)) throw err;
    // The recipe's connection was deleted: its accounts are inactive (as `edp doctor` reports) and
    // stay in the append-only configuration; there is nothing to append to a connection that is gone.
    notes.push({
      resource: 'recipe',
      name,
      code: 'connection_deleted',
      message: `the recipe's ${s.dataSource} connection ${connectionId} was deleted: its ${configured.length} account(s) are inactive and deliver nothing; reconnect with \`${suggest(['iframe-url', '--type', 'datasource', '--name', s.dataSource], { workspace: ws })}\``,
    });
    return undefined;
  }
  const open = s.accounts.filter((sel) => metBy(sel, configured, accounts) === undefined);
  // all-active only asks for more: it is met once no active account is left out.
  const wanted = open.filter(
    (sel) => sel !== 'all-active' || accounts.accounts.some((a) => a.is_active && !configured.includes(idText(a.id))),
  );
  if (!s.accounts.includes('all-active')) {
    const kept = new Set(
      s.accounts.map((sel) => metBy(sel, configured, accounts)).filter((x): x is string => x !== undefined),
    );
    const dropped = configured.filter((id) => !kept.has(id));
    if (dropped.length > 0) {
      block(
        'account_removal_not_allowed',
        `the recipe's ${s.dataSource} configuration has account(s) the file leaves out: ${dropped.map((id) => accountName(id, accounts)).join(', ')}; the configuration only grows (Automated recipes v3.1, rule 2), so they stay; add them to the file`,
      );
    }
  }
  let resolved: string[] = [];
  let selectors = wanted;
  while (selectors.length > 0) {
    try {
      resolved = (await resolveAccounts(api, ws, connectionId, selectors)).map((a) => a.id);
      break;
    } catch (err) {
      if (!(err instanceof UnresolvedAccountsError)) throw err;
      for (const p of err.problems)
        block('account_unresolved', `${s.dataSource} account ${p.selector} in workspace ${ws}: ${p.reason}`);
      const bad = new Set(err.problems.map((p) => p.selector));
      selectors = selectors.filter((sel) => !bad.has(sel.trim()));
    }
  }
  const added = resolved.filter((id) => !configured.includes(id));
  if (configured.length === 0 && added.length === 0) return undefined;
  return {
    source: { dataSource: s.dataSource, connection: connectionId, accounts: added },
    addition: { dataSource: s.dataSource, connectionId, accountIds: added },
    added: added.map((id) => accountName(id, accounts)),
  };
}

export async function planRecipe(
  api: Service,
  ws: string,
  entry: RecipeEntry,
  template: RecipeTemplate,
  recipes: Recipe[],
  readAccounts: (c: string) => Promise<ConnectionAccounts>,
  out: WorkspacePlan,
): Promise<void> {
  const name = entry.template;
  // The contract's recipe fields do not include the template: the list's template filter finds its recipe.
  const existing =
    recipes.find((r) => r.template_id !== undefined && idText(r.template_id) === idText(template.id)) ??
    (recipes.some((r) => r.template_id === undefined)
      ? (await collect(listRecipes(api, ws, { templateId: idText(template.id) }, { limit: 1 })))[0]
      : undefined);
  if (existing && entry.title !== undefined && existing.title !== undefined && existing.title !== entry.title) {
    // The contract has no operation that renames a recipe: the title is set by the create call.
    out.blocked.push({
      resource: 'recipe',
      name,
      code: 'title_change_not_supported',
      message: `recipe ${idText(existing.recipe_id)} is titled "${existing.title}" and the file says "${entry.title}"; the service cannot rename a recipe (the title is set when it is created), so put "${existing.title}" back in the file, or delete the recipe (\`${suggest(['recipes', 'delete', idText(existing.recipe_id)], { workspace: ws })}\`) to have apply create it with the new title`,
    });
  }
  const dropped = (existing?.data_sources ?? []).filter((ds) => !entry.sources.some((s) => s.dataSource === ds));
  if (dropped.length > 0) {
    out.blocked.push({
      resource: 'recipe',
      name,
      code: 'data_source_removal_not_allowed',
      message: `recipe ${idText(existing!.recipe_id)} has data source(s) the file leaves out: ${dropped.join(', ')}; the configuration only grows (Automated recipes v3.1, rule 2), so they stay; add them to the file`,
    });
  }
  const sources: SourcePlan[] = [];
  for (const s of entry.sources) {
    const p = await planSource(api, ws, entry, s, existing, readAccounts, out.blocked, out.notes);
    if (p) sources.push(p);
  }
  if (!existing && sources.length === 0) return;
  const base: Configured = existing ?? NOT_CREATED;
  const merged = mergeConfiguration(base, sources.map((s) => s.addition!).filter(Boolean), entry.syncFrom);
  const running = BUILDING_STATES.has(base.state ?? '');
  const build = !running && (merged.changed || base.state !== 'ready_to_work');
  const id = existing ? existing.recipe_id : null;
  if (!existing)
    out.changes.push({
      resource: 'recipe',
      name,
      action: 'create',
      id: null,
      detail: { template_id: template.id, title: entry.title ?? template.title },
    });
  if (merged.changed) {
    const detail: Extract<Change, { action: 'configure' }>['detail'] = {
      accounts: sources
        .filter((s) => s.added.length > 0)
        .map((s) => ({
          data_source: s.source.dataSource,
          connection_id: jsonInteger(s.source.connection!),
          add: s.added,
        })),
    };
    const newSources = merged.config.data_sources.filter((ds) => !(base.data_sources ?? []).includes(ds));
    if (newSources.length > 0) detail.data_sources = newSources;
    if (entry.syncFrom !== undefined && entry.syncFrom !== (base.sync_from_date ?? undefined))
      detail.sync_from_date = entry.syncFrom;
    out.changes.push({ resource: 'recipe', name, action: 'configure', id, detail });
  }
  if (build) out.changes.push({ resource: 'recipe', name, action: 'build', id, detail: { state: base.state ?? null } });
  if (!existing || merged.changed || build) {
    out.recipes.push({
      entry,
      template,
      spec: {
        template: idText(template.id),
        title: entry.title,
        syncFrom: entry.syncFrom,
        sources: sources.map((s) => s.source).filter((s) => s.accounts.length > 0),
        workspaces: [ws],
        concurrency: 1,
      },
    });
  }
}
