import { originOf } from '../api/path.js';
import { createRole, deleteRole, listRoles, updateRole, type Role } from '../api/roles.js';
import type { Service } from '../api/service.js';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  listWebhookEndpoints,
  updateWebhookEndpoint,
  verifyWebhookEndpoint,
  type EndpointWithSecret,
  type WebhookEndpoint,
} from '../api/webhooks.js';
import { ApiError, ExitError, InterruptedError, OutcomeUnknownError, UsageError } from '../errors.js';
import { collect } from '../util/collect.js';
import { idText, jsonInteger } from '../util/json.js';
import { deployToWorkspace, type DeployOutcome, type StepReporter } from '../recipes/deploy.js';
import type { WaitOptions } from '../recipes/wait.js';
import type { FleetFile, RoleEntry } from './file.js';
import type { AgencyPlan, Blocked, Change, FleetPlan, WorkspacePlan } from './plan.js';
import { pool } from './pool.js';
import { UnreachableStopError } from '../util/poll.js';
import type { SecretsFileWriter } from './secrets-file.js';
import { createWorkspace, listWorkspaces, updateWorkspace } from '../api/workspaces.js';
import { isNewKey } from './select.js';
import { sentOf } from './plan.js';
import { applyKindChange, isKindChange, KIND_CONFLICTS, KIND_NOT_FOUND, kindRowName } from './apply-kinds.js';
import type { KindChange } from './plan/kinds-types.js';

/**
 * Carries a plan out. Recipes go through `recipes deploy`'s own sequence (adopt on 409, append
 * only, no second build while one runs, rebuild once the extraction tables exist), so apply
 * keeps its guarantees. For endpoints and roles a write whose answer was lost is never simply
 * repeated: the list is read again first (docs/contract-rules.md, Retries 3), and a repeated delete that
 * answers 404 means the first one landed. Once the run has found the service unreachable (a
 * request failed for a network reason after its retries, or a wait ended so), no write starts
 * in any workspace: what is under way goes on to its end, the rest is `not started`.
 */

/**
 * One row per workspace and resource (`apply --json` prints these, each with the note the
 * command words from the row's facts, `factsOf`, after its secret and before its wave).
 */
export interface ApplyRow {
  workspace_id: unknown;
  resource: string;
  name: string;
  /** what was planned, e.g. "create, configure, build" */
  action: string;
  id: unknown;
  /** ok, blocked, failed, degraded, unverified, interrupted, not started */
  result: string;
  state: string | null;
  degraded: boolean | null;
  /**
   * Why the row did not reach its goal: `{code, message}` when blocked or interrupted, the build
   * error of a failed build, the thrown error itself when its work failed (the command shows it).
   */
  error: unknown;
  /** a new endpoint's secret, shown once */
  secret?: string | undefined;
  /** with `--waves`: the wave the row belongs to (1-based) */
  wave?: number | undefined;
}

/** A recipe or endpoint of a workspace whose change apply begins (the actions planned, joined by ", "). */
export interface WorkBegun {
  workspace: string;
  resource: 'workspace' | 'recipe' | 'webhook' | KindChange['resource'];
  name: string;
  action: string;
}

export interface FleetApplyOptions {
  /** workspaces changed at once, given how many there are */
  concurrency: (workspaces: number) => number;
  verify: boolean;
  wait: Omit<WaitOptions, 'onState'>;
  /** step progress of one workspace */
  reporter: (ws: string, name: string) => StepReporter;
  /** told as each recipe or endpoint of a workspace is begun */
  progress: (work: WorkBegun) => void;
  /** told when a recipe's deployment has ended, whatever its outcome */
  deployed?: ((ws: string, name: string) => void) | undefined;
  /** Ctrl-C: what is under way ends, and each row says what may have landed */
  signal?: AbortSignal | undefined;
  /** where new endpoints' secrets are written (else they are in the rows, printed once) */
  secrets?: SecretsFileWriter | undefined;
}

/** What decides a row's stop: Ctrl-C. */
type RowStops = Pick<FleetApplyOptions, 'signal'>;

/**
 * What a row's result does not say and its reader needs, as data: the command words each (the
 * row's note), with the commands that show what is left.
 */
export type ApplyFact =
  /** Ctrl-C came before the row's work began: nothing was sent for it */
  | { kind: 'not-begun' }
  /** not started because the run had found the service unreachable: nothing was sent for it */
  | { kind: 'unreachable' }
  /** Ctrl-C came while the row's write (its action) was under way: it may have landed */
  | { kind: 'write-interrupted'; action: string }
  /** a recipe's deployment Ctrl-C ended, in its workspace: what may have landed is by its step */
  | { kind: 'interrupted-deploy'; outcome: DeployOutcome; workspace: string }
  /** a new endpoint whose answer, and with it the secret, was lost: a new secret is the way back */
  | { kind: 'secret-lost'; endpoint: string; workspace: string }
  /** a new endpoint's secret, written to the secrets file */
  | { kind: 'secret-written'; path: string }
  /** a new endpoint's secret the secrets file could not take (why): it is in the row instead */
  | { kind: 'secret-not-written'; path: string; reason: string }
  /** a new endpoint left unverified: it receives no event until verified */
  | { kind: 'unverified'; endpoint: string; workspace: string }
  /** an extract of the template and account was there already (a recipe's build makes them): taken as it is */
  | { kind: 'extract-taken'; extract: string }
  /** a wave not started because wave `wave` failed, or was `stopped` by Ctrl-C or a stop signal */
  | { kind: 'earlier-wave-failed'; wave: number; stopped: boolean };

/** Each row's facts, in the order learnt (kept out of the row, which is printed). */
const facts = new WeakMap<ApplyRow, ApplyFact[]>();

/** What the run learnt of a row beyond its fields, for the command to word; none for most rows. */
export function factsOf(r: ApplyRow): readonly ApplyFact[] {
  return facts.get(r) ?? [];
}

/** Adds to a row's facts. */
export function addFact(r: ApplyRow, fact: ApplyFact): void {
  facts.set(r, [...factsOf(r), fact]);
}

/** Whether carrying the plan out receives secrets the service shows only once: it creates webhook endpoints. */
export function receivesSecrets(plan: FleetPlan): boolean {
  return plan.workspaces.some((w) => w.changes.some((c) => c.resource === 'webhook' && c.action === 'create'));
}

/** A lost answer is resolved by re-reading, a bounded number of times. */
const OUTCOME_ATTEMPTS = 5;

const row = (ws: string | null, resource: string, name: string, action: string, id: unknown): ApplyRow => ({
  // A workspace apply has yet to create has no id.
  workspace_id: ws === null || isNewKey(ws) ? null : jsonInteger(ws),
  resource,
  name,
  action,
  id: id ?? null,
  result: 'ok',
  state: null,
  degraded: null,
  error: null,
});

/** The error behind a failed row, for its exit code (kept out of the row, which is printed). */
const causes = new WeakMap<ApplyRow, unknown>();

/**
 * A row whose work Ctrl-C ended, with what may have landed: that fact is then the row's only
 * one (what the work had done before is no longer what its reader needs).
 */
function interrupted(r: ApplyRow, fact: ApplyFact): ApplyRow {
  r.result = 'interrupted';
  r.error = { code: 'interrupted', message: 'stopped by Ctrl-C or a stop signal' };
  facts.set(r, [fact]);
  causes.set(r, new InterruptedError());
  return r;
}

/** A row Ctrl-C reached before its work began. */
function notStarted(r: ApplyRow): ApplyRow {
  return interrupted(r, { kind: 'not-begun' });
}

/**
 * A row whose work was not started because the run had found the service unreachable (in
 * this workspace or another): nothing was sent for it. Its exit code is the fault's (1).
 */
function notStartedUnreachable(api: Service, r: ApplyRow, found: Error): ApplyRow {
  const err = new UnreachableStopError('not started', found, originOf(api.client.baseUrl), 'nothing was sent for it');
  r.result = 'not started';
  r.error = { code: 'service_unreachable', message: err.message };
  addFact(r, { kind: 'unreachable' });
  causes.set(r, err);
  return r;
}

/**
 * The row of work about to begin, when it must not: Ctrl-C, or a service found unreachable.
 * Undefined when the work may begin.
 */
function mayNotBegin(api: Service, r: ApplyRow, run: RowStops): ApplyRow | undefined {
  if (run.signal?.aborted) return notStarted(r);
  const found = api.unreachable;
  return found ? notStartedUnreachable(api, r, found) : undefined;
}

/** A webhook or role row that failed because of Ctrl-C: its write may have landed. */
function afterInterrupt(r: ApplyRow, run: RowStops): ApplyRow {
  if (r.result !== 'failed' || !run.signal?.aborted) return r;
  return interrupted(r, { kind: 'write-interrupted', action: r.action });
}

function failed(r: ApplyRow, err: unknown, api?: Service): ApplyRow {
  // A service found unreachable here stops every write of the run that follows.
  api?.noteFailure(err);
  r.result = 'failed';
  r.error = err;
  causes.set(r, err);
  return r;
}

export function blockedRows(ws: string | null, blocked: Blocked[]): ApplyRow[] {
  return blocked.map((b) => ({
    ...row(ws, b.resource, b.name, 'none', null),
    result: 'blocked',
    error: { code: b.code, message: b.message },
  }));
}

export async function applyFleet(
  api: Service,
  file: FleetFile,
  plan: FleetPlan,
  opts: FleetApplyOptions,
): Promise<ApplyRow[]> {
  // A service the plan's reads found unreachable is sent no write at all.
  for (const part of [...plan.workspaces, plan.agency]) if (part.error) api.noteFailure(part.error);
  const agency = applyRoles(api, file, plan.agency, opts);
  const perWorkspace = await pool(plan.workspaces, opts.concurrency(plan.workspaces.length), (w) =>
    applyWorkspace(api, w, opts),
  );
  return [...perWorkspace.flat(), ...(await agency)];
}

async function applyWorkspace(api: Service, w: WorkspacePlan, opts: FleetApplyOptions): Promise<ApplyRow[]> {
  if (w.error) return [failed(row(w.workspace_id, 'workspace', w.workspace_id, 'read', null), w.error)];
  const rows: ApplyRow[] = [];
  // The workspace itself first: nothing is sent to one that could not be created or renamed.
  const own = w.changes.find((c) => c.resource === 'workspace');
  if (own) {
    const done = await applyWorkspaceChange(api, w, own, opts);
    if (done.result !== 'ok') return [done, ...workspaceNotReady(w, done)];
    rows.push(done);
  }
  const ws = w.workspace_id;
  for (const work of w.recipes) {
    const name = work.entry.template;
    const r = recipeRow(w, name);
    const stopped = mayNotBegin(api, r, opts);
    if (stopped) {
      rows.push(stopped);
      continue;
    }
    opts.progress({ workspace: ws, resource: 'recipe', name, action: r.action });
    const outcome = await deployToWorkspace(
      api,
      ws,
      work.spec,
      async () => work.template,
      { wait: opts.wait, rebuild: false },
      opts.reporter(ws, name),
    );
    opts.deployed?.(ws, name);
    const recipe = outcome.recipe;
    r.id = recipe?.recipe_id ?? r.id;
    r.state = recipe?.state ?? null;
    r.degraded = recipe ? (recipe.degraded ?? false) : null;
    if (outcome.error && outcome.interrupted) interrupted(r, { kind: 'interrupted-deploy', outcome, workspace: ws });
    else if (outcome.error) failed(r, outcome.error, api);
    else if (recipe?.state === 'failed') {
      r.result = 'build failed';
      r.error = recipe.error ?? null;
    } else if (recipe?.degraded) r.result = 'degraded';
    rows.push(r);
  }
  const known = new Set(w.endpoints.map((e) => idText(e.id)));
  for (const c of w.changes.filter((x) => x.resource === 'webhook'))
    rows.push(
      mayNotBegin(api, row(ws, 'webhook', c.name, c.action, c.id), opts) ??
        afterInterrupt(await applyWebhook(api, ws, c, sentOf(w, c).name, known, opts), opts),
    );
  for (const c of w.changes.filter(isKindChange))
    rows.push(
      mayNotBegin(api, row(ws, c.resource, kindRowName(c), c.action, c.id), opts) ??
        afterInterrupt(await applyKind(api, ws, c, opts), opts),
    );
  rows.push(...blockedRows(ws, w.blocked));
  return rows;
}

/** A recipe's row: the actions planned for it, joined. */
function recipeRow(w: WorkspacePlan, name: string): ApplyRow {
  const actions = w.changes.filter((c) => c.resource === 'recipe' && c.name === name);
  return row(w.workspace_id, 'recipe', name, actions.map((c) => c.action).join(', '), actions[0]?.id);
}

/**
 * The rows a workspace's plan would end with, as applyWorkspace makes them, before any work:
 * each change `ok` (its result still to come), what cannot be done `blocked`.
 */
export function plannedRows(w: WorkspacePlan): ApplyRow[] {
  const ws = w.workspace_id;
  if (w.error) return [failed(row(ws, 'workspace', ws, 'read', null), w.error)];
  return [
    ...w.changes.filter((c) => c.resource === 'workspace').map((c) => row(ws, 'workspace', c.name, c.action, c.id)),
    ...w.recipes.map((work) => recipeRow(w, work.entry.template)),
    ...w.changes.filter((c) => c.resource === 'webhook').map((c) => row(ws, 'webhook', c.name, c.action, c.id)),
    ...w.changes.filter(isKindChange).map((c) => row(ws, c.resource, kindRowName(c), c.action, c.id)),
    ...blockedRows(ws, w.blocked),
  ];
}

// ---------------------------------------------------------------- the workspace of a client

/**
 * Creates or renames a client's workspace; once created, the plan's workspace is known by its
 * new id, under which everything else planned for it is sent.
 */
async function applyWorkspaceChange(
  api: Service,
  w: WorkspacePlan,
  c: Change,
  opts: FleetApplyOptions,
): Promise<ApplyRow> {
  const r = row(w.workspace_id, 'workspace', c.name, c.action, c.id);
  const stopped = mayNotBegin(api, r, opts);
  if (stopped) return stopped;
  opts.progress({ workspace: w.workspace_id, resource: 'workspace', name: c.name, action: c.action });
  const title = sentOf(w, c).name;
  try {
    if (c.action === 'create') {
      const created = await createOrAdoptWorkspace(api, title);
      w.workspace_id = idText(created.id);
      r.workspace_id = created.id;
      r.id = created.id;
      r.state = 'created';
    } else {
      await updateWorkspace(api, idText(c.id), title);
      r.state = 'renamed';
    }
  } catch (err) {
    return afterInterrupt(failed(r, err, api), opts);
  }
  return r;
}

/**
 * Creates a workspace. A create is not repeatable (a second would be a second workspace): after
 * a lost answer the list is read again, and a workspace of that title (the plan found none) is
 * the one created (docs/contract-rules.md, Retries 3).
 */
async function createOrAdoptWorkspace(api: Service, title: string): Promise<{ id: unknown; title?: unknown }> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await createWorkspace(api, title);
    } catch (err) {
      if (!(err instanceof OutcomeUnknownError) || attempt >= OUTCOME_ATTEMPTS) throw err;
      const landed = (await collect(listWorkspaces(api))).find((x) => x.title === title);
      if (landed) return landed;
    }
  }
}

/** The rows of a workspace whose creation or rename did not happen: nothing else was sent to it. */
function workspaceNotReady(w: WorkspacePlan, own: ApplyRow): ApplyRow[] {
  const what = own.action === 'create' ? 'created' : 'renamed';
  return plannedRows(w)
    .filter((r) => r.resource !== 'workspace' && r.result === 'ok')
    .map((r) => ({
      ...r,
      result: 'not started',
      error: {
        code: 'workspace_not_ready',
        message: `the workspace was not ${what} (${own.result}), so nothing was sent for it`,
      },
    }));
}

// ---------------------------------------------------------------- webhook endpoints

/**
 * Creates an endpoint. A create is not repeatable (a second one would be a second endpoint with
 * its own secret): after a lost answer the list is read again, and an endpoint at the url that
 * was not there before is the one created; its secret is then lost with the answer.
 */
async function createEndpoint(
  api: Service,
  ws: string,
  url: string,
  events: string[],
  known: Set<string>,
): Promise<{ endpoint: EndpointWithSecret | WebhookEndpoint; secretLost: boolean }> {
  for (let attempt = 1; ; attempt++) {
    try {
      return { endpoint: await createWebhookEndpoint(api, ws, { url, event_types: events }), secretLost: false };
    } catch (err) {
      if (!(err instanceof OutcomeUnknownError) || attempt >= OUTCOME_ATTEMPTS) throw err;
      const landed = (await collect(listWebhookEndpoints(api, ws))).find(
        (e) => e.url === url && !known.has(idText(e.id)),
      );
      if (landed) return { endpoint: landed, secretLost: true };
    }
  }
}

/** A delete repeated after a lost answer answers 404 when the first landed (docs/contract-rules.md, Retries 3). */
async function deleteRepeatable(remove: () => Promise<unknown>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await remove();
      return;
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) return;
      if (!(err instanceof OutcomeUnknownError) || attempt >= OUTCOME_ATTEMPTS) throw err;
    }
  }
}

async function applyWebhook(
  api: Service,
  ws: string,
  c: Change,
  /** the url to send: the change's name, unless a value of the environment is shown in its place */
  url: string,
  known: Set<string>,
  opts: FleetApplyOptions,
): Promise<ApplyRow> {
  const r = row(ws, 'webhook', c.name, c.action, c.id);
  opts.progress({ workspace: ws, resource: 'webhook', name: c.name, action: c.action });
  try {
    const events = 'events' in c.detail ? c.detail.events : [];
    if (c.action === 'create') {
      const { endpoint, secretLost } = await createEndpoint(api, ws, url, events, known);
      known.add(idText(endpoint.id));
      r.id = endpoint.id;
      const id = idText(endpoint.id);
      if (secretLost) addFact(r, { kind: 'secret-lost', endpoint: id, workspace: ws });
      else if (opts.secrets && endpoint.secret) {
        // Written before the verification, so that a listener reading the file can answer it.
        try {
          await opts.secrets.record({ workspace_id: ws, endpoint_id: id, url: c.name, secret: endpoint.secret });
          addFact(r, { kind: 'secret-written', path: opts.secrets.path });
        } catch (err) {
          // The service will not show it again: printed rather than lost.
          r.secret = endpoint.secret;
          addFact(r, { kind: 'secret-not-written', path: opts.secrets.path, reason: (err as Error).message });
        }
      } else r.secret = endpoint.secret;
      if (opts.verify) {
        try {
          const verified = await verifyWebhookEndpoint(api, ws, id);
          r.state = verified.status ?? null;
        } catch (err) {
          return failed(r, err, api);
        }
      } else r.state = endpoint.status ?? 'unverified';
      if (r.state !== 'active') {
        r.result = 'unverified';
        addFact(r, { kind: 'unverified', endpoint: id, workspace: ws });
      }
    } else if (c.action === 'update') {
      const endpoint = await updateWebhookEndpoint(api, ws, idText(c.id), events);
      r.state = endpoint.status ?? null;
    } else if (c.action === 'delete') {
      await deleteRepeatable(() => deleteWebhookEndpoint(api, ws, idText(c.id)));
      r.state = 'deleted';
    }
  } catch (err) {
    return failed(r, err, api);
  }
  return r;
}

/** An extract's, a destination connection's, accounts' or a data table's change (apply-kinds.ts). */
async function applyKind(api: Service, ws: string, c: KindChange, opts: FleetApplyOptions): Promise<ApplyRow> {
  const r = row(ws, c.resource, kindRowName(c), c.action, c.id);
  opts.progress({ workspace: ws, resource: c.resource, name: r.name, action: c.action });
  try {
    const done = await applyKindChange(api, ws, c);
    r.id = done.id ?? r.id;
    r.state = done.state ?? null;
    if (done.taken !== undefined) addFact(r, { kind: 'extract-taken', extract: done.taken });
  } catch (err) {
    return failed(r, err, api);
  }
  return r;
}

// ---------------------------------------------------------------- roles

const roleBody = (e: RoleEntry) => ({ title: e.title, description: e.description, permissions: e.permissions });

/**
 * Creates a role. A repeated create answers 409 (title taken) when the first landed, so after a
 * lost answer or a 409 the roles are read again and the role of that title is taken and set.
 */
async function createOrAdoptRole(api: Service, e: RoleEntry): Promise<Role> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await createRole(api, roleBody(e));
    } catch (err) {
      const taken = err instanceof ApiError && err.status === 409;
      if (!(err instanceof OutcomeUnknownError || taken) || attempt >= OUTCOME_ATTEMPTS) throw err;
      const found = (await collect(listRoles(api))).find((x) => x.title === e.title && x.is_system !== true);
      if (found) return updateRole(api, idText(found.id), roleBody(e));
      if (taken) throw err;
    }
  }
}

async function applyRoles(api: Service, file: FleetFile, plan: AgencyPlan, run: RowStops): Promise<ApplyRow[]> {
  if (plan.error) return [failed(row(null, 'role', '(agency roles)', 'read', null), plan.error)];
  const rows: ApplyRow[] = [];
  for (const c of plan.changes) {
    const r = row(null, 'role', c.name, c.action, c.id);
    const stopped = mayNotBegin(api, r, run);
    if (stopped) {
      rows.push(stopped);
      continue;
    }
    try {
      const title = sentOf(plan, c).name;
      const entry = (plan.entries ?? file.roles).find((e) => e.title === title);
      if (c.action === 'create') r.id = (await createOrAdoptRole(api, entry!)).id;
      else if (c.action === 'update') await updateRole(api, idText(c.id), roleBody(entry!));
      else if (c.action === 'delete') await deleteRepeatable(() => deleteRole(api, idText(c.id)));
    } catch (err) {
      failed(r, err, api);
    }
    rows.push(afterInterrupt(r, run));
  }
  return [...rows, ...blockedRows(null, plan.blocked)];
}

// ---------------------------------------------------------------- outcomes

/**
 * What cannot be done, as the error it amounts to: a refused removal is a conflict, a missing
 * thing not found, anything else bad input (errors.ts gives each its exit code).
 */
function blockedError(b: { code: string; message: string }): Error {
  if (
    b.code.endsWith('_removal_not_allowed') ||
    b.code === 'title_change_not_supported' ||
    KIND_CONFLICTS.includes(b.code)
  )
    return new ExitError('conflict', b.message);
  if (
    ['account_unresolved', 'connection_not_found', 'template_not_found', 'not_found'].includes(b.code) ||
    KIND_NOT_FOUND.includes(b.code)
  )
    return new ExitError('notFound', b.message);
  return new UsageError(b.message);
}

/** Why a row did not reach its goal, or undefined when it did (an unverified endpoint and a degraded build did). */
function rowFailure(r: ApplyRow): unknown {
  if (r.result === 'ok' || r.result === 'unverified' || r.result === 'degraded') return undefined;
  const err = r.error as { code?: string | null; message?: string } | null;
  // Its failure is its workspace's row.
  if (err?.code === 'workspace_not_ready') return undefined;
  if (r.result === 'blocked') return blockedError({ code: err?.code ?? '', message: err?.message ?? '' });
  if (r.result === 'build failed') return new ExitError('buildFailed', `recipe ${idText(r.id)} build failed`);
  return causes.get(r) ?? new ExitError('failure', err?.message ?? `${r.resource} ${r.name}: ${r.result}`);
}

/** The failures of an apply, each already printed in its row. */
export function applyFailures(rows: ApplyRow[]): unknown[] {
  return rows.map(rowFailure).filter((f) => f !== undefined);
}

/** What keeps a plan from being carried out whole: parts that could not be read, items blocked. */
export function planFailures(plan: FleetPlan): unknown[] {
  const parts: Array<WorkspacePlan | AgencyPlan> = [...plan.workspaces, plan.agency];
  return [...parts.filter((p) => p.error).map((p) => p.error), ...parts.flatMap((p) => p.blocked.map(blockedError))];
}
