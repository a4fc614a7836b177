import { createHash } from 'node:crypto';
import { BUILDING_STATES, listRecipes, type Recipe, type RecipeTemplate } from '../api/recipes.js';
import { getPermissionCatalog, listRoles, type PermissionPair, type Role } from '../api/roles.js';
import type { Service } from '../api/service.js';
import { listAccounts, listAccountsV3, remoteIdLookup, type AccountV31 } from '../api/accounts.js';
import { listConnections } from '../api/connections.js';
import { resolveAccounts, UnresolvedAccountsError } from '../accounts/select.js';
import { listWebhookEndpoints, listWebhookEventTypes, type WebhookEndpoint } from '../api/webhooks.js';
import { listWorkspaces } from '../api/workspaces.js';
import { ApiError, ExitError, UsageError } from '../errors.js';
import { errorJson, errorLines } from '../output/errors.js';
import { collect } from '../util/collect.js';
import { didYouMean } from '../util/did-you-mean.js';
import { idText, jsonInteger, stringifyJson } from '../util/json.js';
import { mergeConfiguration, type Addition } from '../recipes/configuration.js';
import { checkSourcesAllowed, resolveTemplate } from '../recipes/deploy.js';
import type { DeploySpec, SourceSpec } from '../recipes/spec.js';
import { entryWorkspaces, type FleetFile, type RecipeEntry, type RoleEntry, type WebhookEntry } from './file.js';
import { pool } from './pool.js';

/**
 * What `apply` would do to bring the live state to the fleet file, read without a single write.
 * The recipe configuration only grows (contract, Automated recipes v3.1, rule 2): what the file
 * leaves out of a configured recipe is a removal the service refuses, so it is reported as
 * blocked, never planned.
 */

export type Resource = 'recipe' | 'webhook' | 'role';

/** A change apply makes. `action`: create, configure, build, update, delete. */
export interface Change {
  resource: Resource;
  /** template title, receiver url or role title */
  name: string;
  action: string;
  /** the existing object's id, null when it is to be created */
  id: unknown;
  detail: Record<string, unknown>;
}

/** Something the file asks for that cannot be done; `code` says why. */
export interface Blocked {
  resource: Resource;
  name: string;
  code: string;
  message: string;
}

/** Something of the live state worth knowing that changes nothing and blocks nothing (a deleted connection). */
export interface Note {
  resource: Resource;
  name: string;
  code: string;
  message: string;
}

/** What apply needs to carry out one recipe entry in one workspace (not part of the JSON plan). */
export interface RecipeWork {
  entry: RecipeEntry;
  template: RecipeTemplate;
  /** the deploy spec for this workspace: connection and internal account ids resolved */
  spec: DeploySpec;
}

export interface WorkspacePlan {
  workspace_id: string;
  changes: Change[];
  blocked: Blocked[];
  notes: Note[];
  /** endpoints the file does not name, deleted only with --prune */
  unmanaged: Array<{ resource: Resource; name: string; id: unknown }>;
  error: unknown;
  /** a digest of each live object the plan was computed from, by `resource id` (a saved plan's check) */
  live: Record<string, string>;
  recipes: RecipeWork[];
  endpoints: WebhookEndpoint[];
}

export interface AgencyPlan {
  changes: Change[];
  blocked: Blocked[];
  unmanaged: Array<{ resource: Resource; name: string; id: unknown }>;
  error: unknown;
  live: Record<string, string>;
  roles: Role[];
}

export interface FleetPlan {
  workspaces: WorkspacePlan[];
  agency: AgencyPlan;
  prune: boolean;
}

export interface PlanOptions {
  prune: boolean;
  /** `-w IDS`: only these workspaces of the file */
  only?: string[] | undefined;
  /** workspaces read at once, given how many there are */
  concurrency: (workspaces: number) => number;
  /** progress for a person, one line per workspace read */
  progress?: (text: string) => void;
}

/**
 * The workspaces a file applies to, every one of them checked to exist: the agency's list is
 * read once, and a workspace it does not hold is an error (exit 5) rather than a workspace with
 * nothing to change. `only` (`-w IDS`) narrows the file's scope to those workspaces; naming one
 * the file does not cover is bad input (exit 2).
 */
export async function fleetWorkspaces(
  api: Service,
  file: FleetFile,
  only?: string[],
): Promise<{ scope: string[]; all: string[] }> {
  const all = (await collect(listWorkspaces(api))).map((w) => idText(w.id));
  const named = new Set<string>(file.workspaces === 'all' ? all : file.workspaces);
  for (const e of [...file.recipes, ...file.webhooks]) for (const ws of entryWorkspaces(e, file, all)) named.add(ws);
  const missing = [...named].filter((ws) => !all.includes(ws));
  if (missing.length > 0)
    throw new ExitError(
      'notFound',
      `the fleet file names workspace${missing.length > 1 ? 's' : ''} ${missing.join(', ')}, which the agency does not have; \`edp workspaces list\` lists them`,
    );
  if (only !== undefined) {
    const outside = only.filter((ws) => !named.has(ws));
    if (outside.length > 0)
      throw new UsageError(
        `--workspace: the fleet file does not cover workspace${outside.length > 1 ? 's' : ''} ${outside.join(', ')} (it covers ${[...named].join(', ') || 'none'})`,
      );
    for (const ws of [...named]) if (!only.includes(ws)) named.delete(ws);
  }
  return { scope: [...named].sort((a, b) => Number(a) - Number(b)), all };
}

/** A template read by id or title, made once for the fleet; a failure is each workspace's own. */
function templateReader(api: Service, ref: string): (ws: string) => Promise<RecipeTemplate> {
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

export async function planFleet(api: Service, file: FleetFile, opts: PlanOptions): Promise<FleetPlan> {
  const { scope, all } = await fleetWorkspaces(api, file, opts.only);
  const templates = new Map(file.recipes.map((e) => [e, templateReader(api, e.template)]));
  const agency = planRoles(api, file, opts.prune);
  const workspaces = await pool(scope, opts.concurrency(scope.length), async (ws) => {
    const p = await planWorkspace(api, ws, file, all, templates, opts.prune);
    opts.progress?.(
      `read workspace ${ws}: ${p.error ? 'cannot be read' : `${p.changes.length} change(s)${p.blocked.length ? `, ${p.blocked.length} blocked` : ''}`}`,
    );
    return p;
  });
  return { workspaces, agency: await agency, prune: opts.prune };
}

// ---------------------------------------------------------------- recipes

interface ConnectionAccounts {
  accounts: AccountV31[];
  byId: Map<string, AccountV31>;
  remoteOf: (a: AccountV31) => string | undefined;
}

/** The accounts of one connection, with their remote ids (joined through the v3 list, as deploy does). */
function accountReader(api: Service, ws: string): (connectionId: string) => Promise<ConnectionAccounts> {
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
  let connectionId =
    s.connection ?? (configuredConnections[0] ? idText(configuredConnections[0].connection_id) : undefined);
  if (connectionId === undefined) {
    const connections = (await collect(listConnections(api, ws, s.dataSource))).map((c) => idText(c.id));
    if (connections.length === 0) {
      block(
        'connection_not_found',
        `workspace ${ws} has no ${s.dataSource} connection; connect it first (\`edp iframe-url -w ${ws} --type datasource --name ${s.dataSource}\`)`,
      );
      return undefined;
    }
    if (connections.length > 1) {
      // Among several, the one where the accounts resolve (deploy's rule, step 4).
      const fits: string[] = [];
      for (const c of connections) {
        try {
          await resolveAccounts(api, ws, c, s.accounts);
          fits.push(c);
        } catch (err) {
          if (!(err instanceof UnresolvedAccountsError)) throw err;
        }
      }
      if (fits.length !== 1) {
        block(
          'connection_ambiguous',
          `workspace ${ws} has ${connections.length} ${s.dataSource} connections (${connections.join(', ')}) and the accounts resolve in ${fits.length === 0 ? 'none' : 'several'} of them`,
        );
        return undefined;
      }
      connectionId = fits[0]!;
    } else connectionId = connections[0]!;
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
      message: `the recipe's ${s.dataSource} connection ${connectionId} was deleted: its ${configured.length} account(s) are inactive and deliver nothing; reconnect with \`edp iframe-url -w ${ws} --type datasource --name ${s.dataSource}\``,
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

async function planRecipe(
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
      message: `recipe ${idText(existing.recipe_id)} is titled "${existing.title}" and the file says "${entry.title}"; the service cannot rename a recipe (the title is set when it is created), so put "${existing.title}" back in the file, or delete the recipe (\`edp recipes delete ${idText(existing.recipe_id)} -w ${ws}\`) to have apply create it with the new title`,
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
  const base: Recipe = existing ?? { recipe_id: null, state: null, data_sources: [], connections: [] };
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
    const detail: Record<string, unknown> = {
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

// ---------------------------------------------------------------- webhooks

const sameSet = (a: string[], b: string[]) => a.length === b.length && a.every((x) => b.includes(x));

/**
 * Event types the service does not list, per entry: apply would send them and the service refuse
 * the endpoint (400), so plan blocks the entry instead.
 */
function unknownEvents(entry: WebhookEntry, known: string[]): string[] {
  return entry.events.filter((n) => !known.includes(n));
}

function planWebhooks(
  entries: WebhookEntry[],
  endpoints: WebhookEndpoint[],
  known: string[],
  prune: boolean,
  manages: boolean,
  out: WorkspacePlan,
): void {
  if (!manages) return;
  const claimed = new Set<WebhookEndpoint>();
  for (const e of entries) {
    const unknown = unknownEvents(e, known);
    if (unknown.length > 0) {
      // Still claimed, so that --prune never deletes the endpoint the entry names.
      const found = endpoints.find((x) => x.url === e.url && !claimed.has(x));
      if (found) claimed.add(found);
      out.blocked.push({
        resource: 'webhook',
        name: e.url,
        code: 'event_type_unknown',
        message: `unknown event type${unknown.length > 1 ? 's' : ''} ${unknown
          .map((n) => {
            const near = didYouMean(n, known);
            return near ? `"${n}" (${near})` : `"${n}"`;
          })
          .join(', ')}; \`edp webhooks event-types -w ${out.workspace_id}\` lists them`,
      });
      continue;
    }
    const found = endpoints.find((x) => x.url === e.url && !claimed.has(x));
    if (!found) {
      out.changes.push({ resource: 'webhook', name: e.url, action: 'create', id: null, detail: { events: e.events } });
      continue;
    }
    claimed.add(found);
    const have = found.event_types ?? [];
    if (!sameSet(have, e.events))
      out.changes.push({
        resource: 'webhook',
        name: e.url,
        action: 'update',
        id: found.id,
        detail: { events: e.events, was: have },
      });
  }
  for (const x of endpoints.filter((x) => !claimed.has(x))) {
    if (prune)
      out.changes.push({
        resource: 'webhook',
        name: x.url ?? idText(x.id),
        action: 'delete',
        id: x.id,
        detail: { events: x.event_types ?? [] },
      });
    else out.unmanaged.push({ resource: 'webhook', name: x.url ?? idText(x.id), id: x.id });
  }
}

// ---------------------------------------------------------------- the live state read

/** The fields of each live object that a plan depends on: a change to any of them changes what apply would do. */
const RECIPE_FIELDS = ['title', 'state', 'data_sources', 'connections', 'sync_from_date'];
const ENDPOINT_FIELDS = ['url', 'event_types', 'status'];
const ROLE_FIELDS = ['title', 'description', 'permissions'];

/** `{"recipe 42": digest, …}`: what a saved plan compares with the live state before it is applied. */
function liveDigests<T extends Record<string, unknown>>(
  resource: Resource,
  items: T[],
  id: (item: T) => unknown,
  fields: string[],
): Record<string, string> {
  return Object.fromEntries(
    items.map((item) => [
      `${resource} ${idText(id(item))}`,
      createHash('sha256')
        .update(stringifyJson(Object.fromEntries(fields.map((f) => [f, item[f] ?? null]))))
        .digest('hex')
        .slice(0, 16),
    ]),
  );
}

// ---------------------------------------------------------------- a workspace

async function planWorkspace(
  api: Service,
  ws: string,
  file: FleetFile,
  all: string[],
  templates: Map<RecipeEntry, (ws: string) => Promise<RecipeTemplate>>,
  prune: boolean,
): Promise<WorkspacePlan> {
  const out: WorkspacePlan = {
    workspace_id: ws,
    changes: [],
    blocked: [],
    notes: [],
    unmanaged: [],
    error: null,
    live: {},
    recipes: [],
    endpoints: [],
  };
  const inScope = <E extends { workspaces?: FleetFile['workspaces'] | undefined }>(e: E) =>
    entryWorkspaces(e, file, all).includes(ws);
  try {
    const entries = file.recipes.filter(inScope);
    const hooks = file.webhooks.filter(inScope);
    const [recipes, endpoints, known] = await Promise.all([
      entries.length > 0 ? collect(listRecipes(api, ws)) : Promise.resolve([] as Recipe[]),
      file.manages.webhooks ? collect(listWebhookEndpoints(api, ws)) : Promise.resolve([] as WebhookEndpoint[]),
      hooks.length > 0
        ? collect(listWebhookEventTypes(api, ws)).then((types) => types.map((t) => t.event_name))
        : Promise.resolve([] as string[]),
    ]);
    out.endpoints = endpoints;
    out.live = {
      ...liveDigests('recipe', recipes, (r) => r.recipe_id, RECIPE_FIELDS),
      ...liveDigests('webhook', endpoints, (e) => e.id, ENDPOINT_FIELDS),
    };
    const readAccounts = accountReader(api, ws);
    for (const entry of entries) {
      let template: RecipeTemplate;
      try {
        template = await templates.get(entry)!(ws);
      } catch (err) {
        // An unknown id (404, 400 template_not_found) or title, or a title several templates share.
        const usage = (err as Error).name === 'UsageError';
        if (!(err instanceof ApiError && [400, 404].includes(err.status)) && !(err instanceof ExitError) && !usage)
          throw err;
        const code =
          err instanceof ApiError
            ? (err.code ?? 'template_not_found')
            : usage
              ? 'template_ambiguous'
              : 'template_not_found';
        out.blocked.push({
          resource: 'recipe',
          name: entry.template,
          code,
          message: `${(err as Error).message.split('\n')[0]!}; the template cannot be deployed`,
        });
        continue;
      }
      try {
        checkSourcesAllowed(template, { sources: entry.sources } as DeploySpec);
      } catch (err) {
        out.blocked.push({
          resource: 'recipe',
          name: entry.template,
          code: 'data_source_not_allowed',
          message: (err as Error).message,
        });
        continue;
      }
      await planRecipe(api, ws, entry, template, recipes, readAccounts, out);
    }
    planWebhooks(hooks, endpoints, known, prune, file.manages.webhooks, out);
  } catch (err) {
    out.error = err;
  }
  return out;
}

// ---------------------------------------------------------------- roles (agency)

const pairKey = (p: PermissionPair) => `${p.layer}:${p.permission}`.toUpperCase();

function roleDiffers(role: Role, entry: RoleEntry): boolean {
  return (
    (role.description ?? '') !== entry.description ||
    !sameSet((role.permissions ?? []).map(pairKey), entry.permissions.map(pairKey))
  );
}

async function planRoles(api: Service, file: FleetFile, prune: boolean): Promise<AgencyPlan> {
  const out: AgencyPlan = { changes: [], blocked: [], unmanaged: [], error: null, live: {}, roles: [] };
  if (!file.manages.roles) return out;
  try {
    const [all, catalog] = await Promise.all([
      collect(listRoles(api)),
      file.roles.length > 0 ? getPermissionCatalog(api) : Promise.resolve([]),
    ]);
    const custom = all.filter((r) => r.is_system !== true);
    out.roles = custom;
    out.live = liveDigests('role', custom, (r) => r.id, ROLE_FIELDS);
    for (const entry of file.roles) {
      // Every pair must come from the catalog; a pair that differs only in letter case takes the catalog's spelling.
      const unknown: string[] = [];
      entry.permissions = entry.permissions.map((p) => {
        const layer = catalog.find((l) => l.layer.toUpperCase() === p.layer.toUpperCase());
        const perm = layer?.permissions?.find((x) => x.permission.toUpperCase() === p.permission.toUpperCase());
        if (!layer || !perm) unknown.push(`${p.layer}:${p.permission}`);
        return layer && perm ? { layer: layer.layer, permission: perm.permission } : p;
      });
      if (unknown.length > 0) {
        out.blocked.push({
          resource: 'role',
          name: entry.title,
          code: 'permission_unknown',
          message: `not in the permission catalog: ${unknown.join(', ')} (\`edp roles permissions\` lists them)`,
        });
        continue;
      }
      const found = custom.find((r) => r.title === entry.title);
      if (!found)
        out.changes.push({
          resource: 'role',
          name: entry.title,
          action: 'create',
          id: null,
          detail: { description: entry.description, permissions: entry.permissions.map(pairKey) },
        });
      else if (roleDiffers(found, entry)) {
        out.changes.push({
          resource: 'role',
          name: entry.title,
          action: 'update',
          id: found.id,
          detail: { description: entry.description, permissions: entry.permissions.map(pairKey) },
        });
      }
    }
    for (const r of custom.filter((r) => !file.roles.some((e) => e.title === r.title))) {
      if (prune)
        out.changes.push({
          resource: 'role',
          name: r.title,
          action: 'delete',
          id: r.id,
          detail: { user_count: r.user_count ?? null },
        });
      else out.unmanaged.push({ resource: 'role', name: r.title, id: r.id });
    }
  } catch (err) {
    out.error = err;
  }
  return out;
}

// ---------------------------------------------------------------- the plan as data

export interface PlanTotals {
  changes: number;
  blocked: number;
  errors: number;
}

export function planTotals(plan: FleetPlan): PlanTotals {
  const parts = [...plan.workspaces, plan.agency];
  return {
    changes: parts.reduce((n, p) => n + p.changes.length, 0),
    blocked: parts.reduce((n, p) => n + p.blocked.length, 0),
    errors: parts.filter((p) => p.error).length,
  };
}

/** The version of the plan's JSON document (docs/plan.schema.json); it changes only when a reader would break. */
export const PLAN_FORMAT_VERSION = 1;

/**
 * `plan --json`: `{format_version, workspaces: [{workspace_id, changes, blocked, notes, unmanaged, error}], agency:
 * {changes, blocked, unmanaged, error}, summary: {changes, blocked, errors}}`. A change is
 * `{resource, name, action, id, detail}`, a blocked item `{resource, name, code, message}`.
 */
export function planJson(plan: FleetPlan): Record<string, unknown> {
  const part = (p: WorkspacePlan | AgencyPlan) => ({
    changes: p.changes,
    blocked: p.blocked,
    ...('notes' in p ? { notes: p.notes } : {}),
    unmanaged: p.unmanaged,
    error: p.error ? errorJson(p.error).error : null,
  });
  return {
    format_version: PLAN_FORMAT_VERSION,
    workspaces: plan.workspaces.map((w) => ({ workspace_id: jsonInteger(w.workspace_id), ...part(w) })),
    agency: part(plan.agency),
    summary: planTotals(plan),
  };
}

/** One line for a person per change. */
export function changeText(c: Change): string {
  const what = `${c.resource} ${c.resource === 'webhook' ? c.name : `"${c.name}"`}${c.id !== null && c.id !== undefined ? ` (${idText(c.id)})` : ''}`;
  const d = c.detail;
  switch (`${c.resource}:${c.action}`) {
    case 'recipe:create':
      return `+ ${what}: create from template ${idText(d.template_id)}, titled "${String(d.title)}"`;
    case 'recipe:configure': {
      const parts = ((d.accounts as Array<{ data_source: string; add: string[] }>) ?? []).map(
        (a) => `append ${a.add.length} ${a.data_source} account(s): ${a.add.join(', ')}`,
      );
      if (d.data_sources) parts.unshift(`add data source(s) ${(d.data_sources as string[]).join(', ')}`);
      if (d.sync_from_date) parts.push(`history from ${String(d.sync_from_date)}`);
      return `~ ${what}: ${parts.join('; ') || 'configure'}`;
    }
    case 'recipe:build':
      return `~ ${what}: build${d.state ? ` (now ${String(d.state)})` : ''}`;
    case 'webhook:create':
      return `+ ${what}: create, events ${(d.events as string[]).join(', ')}`;
    case 'webhook:update':
      return `~ ${what}: events ${(d.was as string[]).join(', ')} → ${(d.events as string[]).join(', ')}`;
    case 'role:create':
      return `+ ${what}: create, permissions ${(d.permissions as string[]).join(', ') || 'none'}`;
    case 'role:update':
      return `~ ${what}: set description and permissions ${(d.permissions as string[]).join(', ') || 'none'}`;
    default:
      return `${c.action === 'delete' ? '-' : '~'} ${what}: ${c.action}${c.action === 'delete' ? ' (--prune)' : ''}`;
  }
}

/** The plan for a person: per workspace, then the agency's roles, then a summary line. */
export function planLines(plan: FleetPlan): string[] {
  const lines: string[] = [];
  const part = (title: string, p: AgencyPlan | WorkspacePlan) => {
    const notes = 'notes' in p ? p.notes : [];
    if (!p.error && p.changes.length === 0 && p.blocked.length === 0 && p.unmanaged.length === 0) {
      lines.push(`${title}: no change`);
      for (const n of notes) lines.push(`  ! ${n.resource} "${n.name}": ${n.message}`);
      return;
    }
    lines.push(`${title}:`);
    if (p.error) lines.push(`  cannot be read: ${errorLines(p.error).join('\n    ')}`);
    for (const c of p.changes) lines.push(`  ${changeText(c)}`);
    for (const b of p.blocked) lines.push(`  ✗ ${b.resource} "${b.name}": cannot be done (${b.code}): ${b.message}`);
    for (const n of notes) lines.push(`  ! ${n.resource} "${n.name}": ${n.message}`);
    for (const u of p.unmanaged)
      lines.push(
        `  · ${u.resource} ${u.resource === 'webhook' ? u.name : `"${u.name}"`} is not in the file; deleted only with --prune`,
      );
  };
  for (const w of plan.workspaces) part(`workspace ${w.workspace_id}`, w);
  if (plan.agency.changes.length || plan.agency.blocked.length || plan.agency.unmanaged.length || plan.agency.error)
    part('agency roles', plan.agency);
  const t = planTotals(plan);
  lines.push(
    t.changes === 0 && t.blocked === 0 && t.errors === 0
      ? 'No changes: the workspaces match the file.'
      : `Plan: ${t.changes} change(s) to make${t.blocked ? `, ${t.blocked} that cannot be done` : ''}${t.errors ? `, ${t.errors} part(s) that could not be read` : ''}.`,
  );
  return lines;
}
