import { suggest } from '../util/suggest.js';
import { inOrder } from '../util/in-order.js';
import { listRecipes, type Recipe, type RecipeTemplate } from '../api/recipes.js';
import type { Service } from '../api/service.js';
import { listWebhookEndpoints, listWebhookEventTypes, type WebhookEndpoint } from '../api/webhooks.js';
import { listWorkspaces } from '../api/workspaces.js';
import { ApiError, ExitError, UsageError } from '../errors.js';
import { collect } from '../util/collect.js';
import { jsonInteger } from '../util/json.js';
import { checkSourcesAllowed } from '../recipes/deploy.js';
import type { DeploySpec } from '../recipes/spec.js';
import {
  entryPath,
  fileProblems,
  scopedEntries,
  type FleetFile,
  type RecipeEntry,
  type RoleEntry,
  type WebhookEntry,
} from './file.js';
import { fleetWorld, isNewKey, selectWorkspaces, type FleetWorkspace } from './select.js';
import { hiddenIn, resolveValues, secretsIn, sentValue, stringsOf, type EnvSecret } from './values.js';
import { pool } from './pool.js';

import type { FleetPlan, PlanOptions, WorkspacePlan } from './plan/types.js';
import { liveDigests, ENDPOINT_FIELDS, RECIPE_FIELDS } from './plan/live.js';
import { accountReader, planRecipe, templateReader } from './plan/recipes.js';
import { planRoles } from './plan/roles.js';
import { planWebhooks } from './plan/webhooks.js';
import { emptyWorkspacePlan, planKinds, planNewKinds } from './plan/kinds.js';

export type * from './plan/types.js';
import type { AgencyPlan, Change, PlanTotals } from './plan/types.js';

/**
 * What `apply` would do to bring the live state to the fleet file, read without a single write.
 * The recipe configuration only grows (docs/contract-rules.md, Automated recipes v3.1, rule 2): what the file
 * leaves out of a configured recipe is a removal the service refuses, so it is reported as
 * blocked, never planned.
 */

/** The workspaces a fleet plans, and those each entry applies to. */
export interface FleetScope {
  /** the workspaces planned: the agency's by id, then the clients' that apply creates */
  scope: FleetWorkspace[];
  /** every workspace of the fleet: the agency's and those to create */
  all: FleetWorkspace[];
  /** the keys of the workspaces an entry applies to */
  of: (entry: object) => ReadonlySet<string>;
}

/**
 * The workspaces a file applies to, worked out in one place: the agency's list is read once,
 * the clients are matched to it (select.ts), and every `workspaces:` selector resolved against
 * it. A selector that selects nothing (`title:` of no workspace) is a file error (exit 2); an id
 * the agency does not have is an error (exit 5) rather than a workspace with nothing to change.
 * `only` (`-w IDS`) narrows the file's scope to those workspaces; naming one the file does not
 * cover is bad input (exit 2).
 */
export async function fleetWorkspaces(api: Service, file: FleetFile, only?: string[]): Promise<FleetScope> {
  const { all, problems, missing } = fleetWorld(await collect(listWorkspaces(api)), file.clients);
  const fileScope = selectWorkspaces(file.workspaces, all, ['workspaces'], problems);
  const named = new Set<string>(fileScope);
  for (const w of all) if (w.client) named.add(w.key);
  const scopes = new Map<object, ReadonlySet<string>>();
  for (const e of scopedEntries(file)) {
    const keys =
      e.workspaces === undefined
        ? fileScope
        : selectWorkspaces(e.workspaces, all, [...(entryPath(e) ?? []), 'workspaces'], problems);
    scopes.set(e, new Set(keys));
    for (const k of keys) named.add(k);
  }
  if (problems.length > 0) throw await fileProblems(file, problems);
  const known = new Set(all.map((w) => w.key));
  missing.push(...[...named].filter((ws) => !known.has(ws) && !missing.includes(ws)));
  if (missing.length > 0)
    throw new ExitError(
      'notFound',
      `the fleet file names workspace${missing.length > 1 ? 's' : ''} ${missing.join(', ')}, which the agency does not have; \`${suggest(['workspaces', 'list'])}\` lists them`,
    );
  if (only !== undefined) {
    const outside = only.filter((ws) => !named.has(ws));
    if (outside.length > 0)
      throw new UsageError(
        `--workspace: the fleet file does not cover workspace${outside.length > 1 ? 's' : ''} ${outside.join(', ')} (it covers ${[...named].filter((k) => !isNewKey(k)).join(', ') || 'none'})`,
      );
    for (const ws of [...named]) if (!only.includes(ws)) named.delete(ws);
  }
  // The agency's workspaces by id, then those to create in the order of the clients.
  const scope = all
    .filter((w) => named.has(w.key))
    .sort((a, b) => (a.id === null || b.id === null ? 0 : Number(a.id) - Number(b.id)));
  return { scope, all, of: (e) => scopes.get(e) ?? new Set() };
}

/** The entries of a section that apply to a workspace, with their values resolved there (values.ts). */
export interface WorkspaceEntries {
  /** the entries among `list` that apply to the workspace, `${…}` resolved: strings from the environment are EnvSecrets */
  of<E extends object>(list: readonly E[]): E[];
  /** every EnvSecret the workspace's entries hold */
  secrets: EnvSecret[];
}

/**
 * Every entry of every workspace resolved before anything is planned, so that a reference that
 * cannot be resolved in some workspace (a var its client lacks) is a file error at its place in
 * the file (exit 2) before any workspace is read.
 */
async function resolveEntries(
  file: FleetFile,
  fleet: FleetScope,
  env: Readonly<Record<string, string | undefined>>,
): Promise<Map<string, WorkspaceEntries>> {
  const problems: Array<{ path: Array<string | number>; message: string; suggestion?: string | null }> = [];
  const seen = new Set<string>();
  const out = new Map<string, WorkspaceEntries>();
  for (const w of fleet.scope) {
    const resolved = new Map<object, object>();
    const secrets: EnvSecret[] = [];
    const owner = w.client ? `client "${w.client.title}"` : `workspace ${w.key} ("${w.title}")`;
    for (const e of scopedEntries(file)) {
      if (!fleet.of(e).has(w.key)) continue;
      const r = resolveValues(e, { vars: w.client?.vars, owner, env });
      for (const p of r.problems) {
        const at = placeReference(file, e, p.ref);
        const key = `${at.join('.')} ${p.message}`;
        if (seen.has(key)) continue;
        seen.add(key);
        problems.push({ path: at, message: p.message, suggestion: p.suggestion ?? null });
      }
      secretsIn(r.value, secrets);
      resolved.set(e, r.value);
    }
    out.set(w.key, {
      of: <E extends object>(list: readonly E[]) =>
        list.filter((e) => resolved.has(e)).map((e) => resolved.get(e) as E),
      secrets,
    });
  }
  if (problems.length > 0) throw await fileProblems(file, problems);
  return out;
}

/** Where a reference is in the file: the string of the entry that holds it, else the entry. */
function placeReference(file: FleetFile, entry: object, ref: string | undefined): Array<string | number> {
  const at = entryPath(entry) ?? [];
  const doc = file.origin?.document as Record<string, unknown> | undefined;
  let raw: unknown = doc;
  for (const k of at) raw = (raw as Record<string | number, unknown> | undefined)?.[k];
  const found = ref === undefined ? undefined : stringsOf(raw, at).find((x) => x.s.includes(ref));
  return found?.path ?? at;
}

export async function planFleet(api: Service, file: FleetFile, opts: PlanOptions): Promise<FleetPlan> {
  const fleet = await fleetWorkspaces(api, file, opts.only);
  const env = opts.env ?? {};
  const entries = await resolveEntries(file, fleet, env);
  // The roles are the agency's: only the environment's values apply to them.
  const roleValues = resolveValues(file.roles, { vars: undefined, owner: 'the agency', env });
  const roleSecrets = secretsIn(roleValues.value);
  const roles = sentValue(roleValues.value) as RoleEntry[];
  const templates = new Map<string, (ws: string) => Promise<RecipeTemplate>>();
  const templateOf = (ref: string) => {
    let read = templates.get(ref);
    if (!read) templates.set(ref, (read = templateReader(api, ref)));
    return read;
  };
  // A workspace to create has no event types of its own to read yet: the agency's first workspace tells them.
  const firstLive = fleet.all.find((w) => w.id !== null)?.id ?? undefined;
  let agencyEventTypes: Promise<string[] | undefined> | undefined;
  const eventTypes = () =>
    (agencyEventTypes ??=
      firstLive === undefined || firstLive === null
        ? Promise.resolve(undefined)
        : collect(listWebhookEventTypes(api, firstLive)).then((types) => types.map((t) => t.event_name)));
  const agency = planRoles(api, { ...file, roles }, opts.prune).then((p) => {
    p.entries = roles;
    return hidePlanned(p, roleSecrets);
  });
  // Each workspace told in the order of the list, as soon as those before it are read.
  const progress = inOrder(fleet.scope.length, (p: WorkspacePlan) => opts.progress?.(p));
  const workspaces = await pool(fleet.scope, opts.concurrency(fleet.scope.length), async (w, i) => {
    const mine = entries.get(w.key)!;
    const p = hidePlanned(
      await planWorkspace(api, w, file, mine, { templateOf, eventTypes }, opts.prune, opts.sendSecrets ?? false),
      mine.secrets,
    );
    progress(i, p);
    return p;
  });
  return { workspaces, agency: await agency, prune: opts.prune };
}

/**
 * A part of the plan as it may be shown and saved: wherever a change, blocked item, note or
 * unmanaged object holds a value of the environment, its text `(from env NAME)` instead. What
 * apply sends (the name, the detail as planned) is kept aside, in `sent`.
 */
function hidePlanned<P extends WorkspacePlan | AgencyPlan>(p: P, secrets: EnvSecret[]): P {
  if (secrets.length === 0) return p;
  const sent = new Map<Change, { name: string; detail: unknown }>();
  p.changes = p.changes.map((c) => {
    const shown = { ...c, name: hiddenIn(c.name, secrets), detail: hiddenIn(c.detail, secrets) } as Change;
    sent.set(shown, { name: c.name, detail: c.detail });
    return shown;
  });
  p.blocked = p.blocked.map((b) => hiddenIn(b, secrets) as typeof b);
  if ('notes' in p) p.notes = p.notes.map((n) => hiddenIn(n, secrets) as typeof n);
  p.unmanaged = p.unmanaged.map((u) => ({ ...u, name: hiddenIn(u.name, secrets) as string }));
  p.sent = sent;
  return p;
}

/** What a change was planned from, to send: its name and detail before any value was hidden. */
export function sentOf(p: WorkspacePlan | AgencyPlan, c: Change): { name: string; detail: unknown } {
  return p.sent?.get(c) ?? { name: c.name, detail: c.detail };
}

/** Reads the fleet shares between workspaces. */
interface SharedReads {
  templateOf: (ref: string) => (ws: string) => Promise<RecipeTemplate>;
  /** the agency's event types, undefined when it has no workspace to read them in */
  eventTypes: () => Promise<string[] | undefined>;
}

async function planWorkspace(
  api: Service,
  w: FleetWorkspace,
  file: FleetFile,
  entriesHere: WorkspaceEntries,
  shared: SharedReads,
  prune: boolean,
  sendSecrets = false,
): Promise<WorkspacePlan> {
  const ws = w.key;
  const out = emptyWorkspacePlan(ws, w.client ? { title: w.client.title, create: w.id === null } : undefined);
  // The workspace itself first: apply creates or renames it before anything in it.
  if (w.id === null)
    out.changes.push({ resource: 'workspace', name: w.title, action: 'create', id: null, detail: { title: w.title } });
  else if (w.was !== undefined)
    out.changes.push({
      resource: 'workspace',
      name: w.title,
      action: 'update',
      id: jsonInteger(w.id),
      detail: { title: w.title, was: w.was },
    });
  try {
    // The planners work with what is sent; what they plan is hidden where shown (hidePlanned).
    const entries = (entriesHere.of(file.recipes) as RecipeEntry[]).map((e) => sentValue(e) as RecipeEntry);
    const hooks = (entriesHere.of(file.webhooks) as WebhookEntry[]).map((e) => sentValue(e) as WebhookEntry);
    if (w.id === null) {
      planNewWorkspace(w, entries, out);
      const known = hooks.length > 0 ? await shared.eventTypes() : [];
      planWebhooks(hooks, [], known ?? hooks.flatMap((h) => h.events), prune, file.manages.webhooks, out);
      await planNewKinds(w.title, file.kinds, (list) => entriesHere.of(list), out);
      return out;
    }
    const readAccounts = accountReader(api, ws);
    // Read alongside the recipes and endpoints; an error of either is the workspace's.
    const kinds = planKinds(api, ws, file.kinds, (list) => entriesHere.of(list), sendSecrets).then(
      (k) => ({ k }),
      (err: unknown) => ({ err }),
    );
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
    for (const entry of entries) {
      let template: RecipeTemplate;
      try {
        template = await shared.templateOf(entry.template)(ws);
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
    const planned = await kinds;
    if ('err' in planned) throw planned.err;
    out.changes.push(...planned.k.changes);
    out.blocked.push(...planned.k.blocked);
    out.notes.push(...planned.k.notes);
    Object.assign(out.live, planned.k.live);
  } catch (err) {
    out.error = err;
  }
  return out;
}

/**
 * A client's workspace that apply creates has nothing to read yet, and no connection: each
 * recipe is blocked until one is made there, as in any workspace without one.
 */
function planNewWorkspace(w: FleetWorkspace, recipes: RecipeEntry[], out: WorkspacePlan): void {
  for (const entry of recipes)
    for (const s of entry.sources)
      out.blocked.push({
        resource: 'recipe',
        name: entry.template,
        code: 'connection_not_found',
        message: `workspace "${w.title}" is created by this apply and has no ${s.dataSource} connection yet; once it exists, connect it (\`${suggest(['iframe-url', '--type', 'datasource', '--name', s.dataSource], { workspace: 'ID' })}\`) and apply again`,
      });
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
