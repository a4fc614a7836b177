import {
  buildRecipe,
  checkExtractions,
  createRecipe,
  getRecipe,
  getTemplate,
  listRecipes,
  listTemplates,
  type ExtractionCheck,
  type Recipe,
  type RecipeConfiguration,
  type RecipeTemplate,
} from '../api/recipes.js';
import { plannedRequest } from '../api/operation.js';
import { originOf } from '../api/path.js';
import type { Service } from '../api/service.js';
import { BUILDING_STATES } from '../contract/recipes.js';
import { ApiError, ExitError, OutcomeUnknownError, UsageError, withHint } from '../errors.js';
import { idText } from '../util/json.js';
import {
  appendConfiguration,
  mergeConfiguration,
  NOT_CREATED,
  type Addition,
  type Configured,
} from './configuration.js';
import { AmbiguousConnectionError, resolveSource } from './resolve.js';
import { didYouMean } from '../util/did-you-mean.js';
import {
  agoText,
  durationText,
  pollUntil,
  UnreachableStopError,
  WaitUnreachableError,
  type PollFault,
} from '../util/poll.js';
import { BuildWaitUnreachableError, waitForBuild, WaitTimeoutError, type WaitOptions } from './wait.js';
import type { DeploySpec, SourceSpec } from './spec.js';
import { suggest } from '../util/suggest.js';
import { collect } from '../util/collect.js';

/**
 * The configuration additions a spec asks for in one workspace: each source's connection and
 * accounts, resolved there, in order. `recipe` is the workspace's recipe (its id is undefined
 * before it is created): the connection it has for a data source is the one added to.
 */
async function resolveAdditions(
  api: Service,
  ws: string,
  spec: DeploySpec,
  recipe: { id: string | undefined; connections: Recipe['connections'] | undefined },
): Promise<Addition[]> {
  const additions: Addition[] = [];
  for (const s of spec.sources) {
    let source;
    try {
      source = await resolveSource(api, ws, s.dataSource, s.accounts, s.connection, recipe.connections);
    } catch (err) {
      if (err instanceof AmbiguousConnectionError) throw withHint(err, chooseConnectionHint(err, s, recipe.id));
      throw err;
    }
    additions.push({
      dataSource: source.dataSource,
      connectionId: source.connectionId,
      accountIds: source.accounts.map((a) => a.id),
    });
  }
  return additions;
}

/**
 * The way out of a workspace with several connections of a data source, for deploy (whose
 * `--connection` takes one workspace's id): configure the recipe with one, then deploy again,
 * which keeps the connection the recipe has. Before the recipe exists (a dry run), a deployment
 * to that workspace alone names it.
 */
function chooseConnectionHint(err: AmbiguousConnectionError, s: SourceSpec, recipeId: string | undefined): string {
  const ws = err.workspaceId;
  if (recipeId === undefined)
    return `name one (${err.choices}) with --connection in a deployment to workspace ${ws} alone (-w ${ws})`;
  const configure = suggest(
    [
      'recipes',
      'configure',
      recipeId,
      '--data-source',
      s.dataSource,
      '--connection',
      err.suggested,
      '--accounts',
      s.accounts.join(','),
    ],
    { workspace: ws },
  );
  return `choose one (${err.choices}) for recipe ${recipeId}: \`${configure}\`, then deploy again (a recipe keeps its connection of a data source)`;
}

/** The steps of the contract's deployment sequence, in order: step 1 is `token`, step 7 `tables`. */
export const DEPLOY_STEPS = ['token', 'template', 'create', 'connections', 'configure', 'build', 'tables'] as const;

export type DeployStep = (typeof DEPLOY_STEPS)[number];

export const STEPS = DEPLOY_STEPS.length;

/** A step's place in the sequence, 1 to STEPS. */
export function stepNumber(step: DeployStep): number {
  return DEPLOY_STEPS.indexOf(step) + 1;
}

/** A step begins in a workspace. */
export interface StepStart {
  step: DeployStep;
  phase: 'start';
  workspace: string;
}

/**
 * What happens in a step once it has begun, as data: the commands word it. A step ends in one
 * `done` (what it did) or one `failed` (the error it ended on); the build steps say meanwhile
 * each build state read, and whether reads are failing.
 */
export type StepEvent =
  | { step: 'token'; phase: 'done'; workspace: string }
  | { step: 'template'; phase: 'done'; template: RecipeTemplate }
  | { step: 'create'; phase: 'done'; recipe: Recipe; adopted: boolean }
  | { step: 'connections'; phase: 'done'; additions: Addition[] }
  | { step: 'configure'; phase: 'done'; addedAccounts: number; changed: boolean }
  | {
      step: 'build' | 'tables';
      phase: 'building';
      /** the recipe as last read (before the first read of a wait, as configured) */
      recipe: Recipe;
      /** the failed reads in a row since then, if the latest failed */
      fault: PollFault | undefined;
    }
  | {
      step: 'build';
      phase: 'done';
      /** a build started by this deployment, one already running that it joined, or none needed */
      build: 'started' | 'joined' | 'none';
      recipe: Recipe;
      /** the build found no data: step 7 builds once more when the extraction tables exist */
      rebuildsWhenTablesExist: boolean;
    }
  | { step: 'tables'; phase: 'waiting'; fault: PollFault | undefined }
  | { step: 'tables'; phase: 'exist' }
  | { step: 'tables'; phase: 'done'; recipe: Recipe }
  | { step: DeployStep; phase: 'failed'; error: unknown };

/** Told of each step as it begins; answers with where that step's events go (it may first set up a spinner). */
export type StepReporter = (start: StepStart) => Promise<(event: StepEvent) => void>;

/** A write whose answer was lost is resolved by re-reading; this bounds the repeats. */
const OUTCOME_ATTEMPTS = 5;

export interface DeployOptions {
  wait: Omit<WaitOptions, 'onState'>;
  rebuild: boolean;
}

export interface DeployOutcome {
  recipe: Recipe | undefined;
  /** how the deployment ended for this workspace */
  error: unknown;
  /** the step it had reached (1 to STEPS) */
  step: number;
  /** the run's stop (Ctrl-C, a stop signal, a closed output) ended it; otherwise it ended on its own */
  interrupted: boolean;
  /** step 3 adopted the workspace's recipe rather than creating one */
  adopted: boolean;
}

/** The command that shows whether a recipe's extraction tables exist. */
function extractionsCommand(id: string, ws: string): string {
  return suggest(['recipes', 'extractions', id], { workspace: ws });
}

/** Template by id, or by exact title through the list's search (case-insensitive when only that matches). */
export async function resolveTemplate(api: Service, ws: string, ref: string): Promise<RecipeTemplate> {
  if (/^\d+$/.test(ref)) return getTemplate(api, ws, ref);
  const found = await collect(listTemplates(api, ws, { search: ref }));
  let exact = found.filter((t) => t.title === ref);
  if (exact.length === 0) exact = found.filter((t) => t.title.toLowerCase() === ref.toLowerCase());
  if (exact.length === 1) return exact[0]!;
  if (exact.length > 1)
    throw new UsageError(
      `several templates are titled "${ref}" (${exact.map((t) => idText(t.id)).join(', ')}): pass --template ID`,
    );
  // A typo finds nothing through the search: the closest titles of the whole list, read only now.
  const candidates = found.length > 0 ? found : await collect(listTemplates(api, ws, {}));
  const near = didYouMean(
    ref,
    candidates.map((t) => t.title),
    (title) => `"${title}"`,
  );
  const similar = near
    ? ''
    : found
        .slice(0, 5)
        .map((t) => `${idText(t.id)} "${t.title}"`)
        .join(', ');
  throw new ExitError(
    'notFound',
    `no template titled "${ref}"${near ? `; ${near}` : similar ? `; similar: ${similar}` : ''} (\`${suggest(['recipes', 'templates'], { workspace: ws })}\` lists them)`,
  );
}

/** The data sources of the spec must be ones the template allows: refused before any write. */
export function checkSourcesAllowed(template: RecipeTemplate, spec: DeploySpec): void {
  if (!template.data_sources) return;
  const refused = spec.sources.map((s) => s.dataSource).filter((ds) => !template.data_sources!.includes(ds));
  if (refused.length > 0) {
    throw new UsageError(
      `template ${idText(template.id)} "${template.title}" does not allow ${refused.join(', ')}; it allows ${template.data_sources.join(', ')}`,
    );
  }
}

/**
 * Step 3: create the recipe, or adopt the workspace's one on `409 recipe_already_exists`
 * (first of `existing_recipe_ids`, best first; the list may be empty after a race, then the
 * recipes of the template are listed). A create whose answer was lost is repeated: a repeat
 * answers 409 if the first landed (docs/contract-rules.md, Retries 3).
 */
async function createOrAdopt(
  api: Service,
  ws: string,
  templateId: string,
  title: string,
): Promise<{ recipe: Recipe; adopted: boolean }> {
  for (let attempt = 1; ; attempt++) {
    try {
      return { recipe: await createRecipe(api, ws, { templateId, title }), adopted: false };
    } catch (err) {
      if (err instanceof OutcomeUnknownError && attempt < OUTCOME_ATTEMPTS) continue;
      if (!(err instanceof ApiError && err.status === 409 && err.code === 'recipe_already_exists')) throw err;
      const ids = Array.isArray(err.details.existing_recipe_ids) ? err.details.existing_recipe_ids : [];
      if (ids.length > 0) return { recipe: await getRecipe(api, ws, idText(ids[0])), adopted: true };
      for await (const r of listRecipes(api, ws, { templateId }, { limit: 1 })) return { recipe: r, adopted: true };
      if (attempt >= OUTCOME_ATTEMPTS) throw err;
    }
  }
}

/**
 * Starts a build unless one is running. A lost answer is resolved by re-reading: a build in
 * progress, or a `last_build_at` that moved, means it started; otherwise it is repeated, and
 * `409 build_already_running` then means another start won (docs/contract-rules.md, Retries 3).
 */
async function startBuild(api: Service, ws: string, id: string, before: Recipe): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await buildRecipe(api, ws, id);
      return;
    } catch (err) {
      if (err instanceof ApiError && err.status === 409 && err.code === 'build_already_running') return;
      if (!(err instanceof OutcomeUnknownError) || attempt >= OUTCOME_ATTEMPTS) throw err;
      const now = await getRecipe(api, ws, id);
      if (BUILDING_STATES.has(now.state ?? '') || (now.last_build_at ?? null) !== (before.last_build_at ?? null))
        return;
    }
  }
}

/** The contract's deployment sequence for one workspace, steps 1 to 7. */
export async function deployToWorkspace(
  api: Service,
  ws: string,
  spec: DeploySpec,
  template: (ws: string) => Promise<RecipeTemplate>,
  opts: DeployOptions,
  report: StepReporter,
): Promise<DeployOutcome> {
  const d = new Deployment(api, ws, opts, report);
  try {
    await issueToken(d);
    const t = await readTemplate(d, spec, template);
    const made = await createRecipeStep(d, t, spec);
    const additions = await resolveConnections(d, spec, made);
    const configured = await configure(d, spec, made, additions);
    const { rescuable } = await build(d, configured);
    if (rescuable) await rebuildWhenTablesExist(d, configured.id);
    return d.outcome();
  } catch (err) {
    // An unreachable service, once found, stops every write of the run that follows.
    api.noteFailure(err);
    if ((err instanceof WaitTimeoutError || err instanceof BuildWaitUnreachableError) && err.recipe)
      d.recipe = err.recipe;
    // The one place a person sees this workspace's error in full.
    d.failed(err);
    return d.outcome({ error: err });
  }
}

/**
 * One workspace's deployment as it goes: the step it has reached and where that step's events
 * go, the recipe as last read, and the time its waits have left (one --wait-timeout for all).
 */
class Deployment {
  recipe: Recipe | undefined;
  /** step 3 adopted the workspace's recipe */
  adopted = false;
  private reached: DeployStep | undefined;
  private tellStep: ((event: StepEvent) => void) | undefined;
  private readonly now: () => number;
  private readonly deadline: number;
  /** The build's state as last read, and while reads fail, that they do; step 7's rebuild goes on from it. */
  private seen: Recipe | undefined;

  constructor(
    readonly api: Service,
    readonly ws: string,
    readonly opts: DeployOptions,
    private readonly report: StepReporter,
  ) {
    this.now = opts.wait.now ?? Date.now;
    this.deadline = this.now() + opts.wait.timeoutMs;
  }

  async begin(step: DeployStep): Promise<void> {
    this.reached = step;
    this.tellStep = await this.report({ step, phase: 'start', workspace: this.ws });
  }

  tell(event: StepEvent): void {
    this.tellStep!(event);
  }

  failed(error: unknown): void {
    if (this.reached) this.tellStep?.({ step: this.reached, phase: 'failed', error });
  }

  /** How it ended: done, or with `failure.error`. */
  outcome(failure?: { error: unknown }): DeployOutcome {
    const step = this.reached ? stepNumber(this.reached) : 0;
    // A failure once the run is stopping is the stop's doing; one before it is the deployment's own.
    const interrupted = failure !== undefined && this.opts.wait.signal?.aborted === true;
    return { recipe: this.recipe, error: failure?.error, step, interrupted, adopted: this.adopted };
  }

  /** The wait options of the next wait: what is left of --wait-timeout. */
  waitLeft(): Omit<WaitOptions, 'onState'> {
    return { ...this.opts.wait, timeoutMs: Math.max(0, this.deadline - this.now()) };
  }

  /**
   * A build's progress, told as step `step`'s events; `from`, the recipe shown before the first
   * read when no build has been followed yet (step 7 goes on from what step 6 read last).
   */
  progress(step: 'build' | 'tables', from: Recipe): Pick<WaitOptions, 'onState' | 'onFault' | 'onRecover'> {
    this.seen ??= from;
    const building = (fault: PollFault | undefined) =>
      this.tell({ step, phase: 'building', recipe: this.seen!, fault });
    return {
      onState: (r) => {
        this.seen = r;
        building(undefined);
      },
      onFault: (f) => building(f),
      onRecover: () => building(undefined),
    };
  }

  /**
   * Once the run has found the service unreachable (here or in another workspace), no write
   * starts: a deployment not begun is not, one under way stops before its next write.
   */
  unlessUnreachable(step: DeployStep): void {
    const found = this.api.unreachable;
    if (!found) return;
    const origin = originOf(this.api.client.baseUrl);
    throw withHint(
      step === 'token'
        ? new UnreachableStopError('not started', found, origin, 'nothing was sent for this workspace')
        : new UnreachableStopError(
            `stopped before step ${stepNumber(step)} (${step})`,
            found,
            origin,
            'nothing more was sent',
          ),
      'once the service answers, run the same command again: it goes on from where this one stopped',
    );
  }
}

/** Step 1: a token of the workspace. */
async function issueToken(d: Deployment): Promise<void> {
  await d.begin('token');
  d.unlessUnreachable('token');
  await d.api.auth.token(d.ws, d.api.client);
  d.tell({ step: 'token', phase: 'done', workspace: d.ws });
}

/** Step 2: the template, which must allow the spec's data sources. */
async function readTemplate(
  d: Deployment,
  spec: DeploySpec,
  template: (ws: string) => Promise<RecipeTemplate>,
): Promise<RecipeTemplate> {
  await d.begin('template');
  const t = await template(d.ws);
  checkSourcesAllowed(t, spec);
  d.tell({ step: 'template', phase: 'done', template: t });
  return t;
}

/** Step 3: the recipe created, or the workspace's one adopted. */
async function createRecipeStep(
  d: Deployment,
  t: RecipeTemplate,
  spec: DeploySpec,
): Promise<{ recipe: Recipe; id: string }> {
  await d.begin('create');
  d.unlessUnreachable('create');
  const made = await createOrAdopt(d.api, d.ws, idText(t.id), spec.title ?? t.title);
  d.recipe = made.recipe;
  d.adopted = made.adopted;
  d.tell({ step: 'create', phase: 'done', recipe: made.recipe, adopted: made.adopted });
  return { recipe: made.recipe, id: idText(made.recipe.recipe_id) };
}

/** Step 4: each source's connection and accounts, resolved in the workspace. */
async function resolveConnections(
  d: Deployment,
  spec: DeploySpec,
  made: { recipe: Recipe; id: string },
): Promise<Addition[]> {
  await d.begin('connections');
  const additions = await resolveAdditions(d.api, d.ws, spec, { id: made.id, connections: made.recipe.connections });
  d.tell({ step: 'connections', phase: 'done', additions });
  return additions;
}

/** Step 5: the additions appended to the recipe's configuration. */
async function configure(
  d: Deployment,
  spec: DeploySpec,
  made: { recipe: Recipe; id: string },
  additions: Addition[],
): Promise<{ id: string; recipe: Recipe; changed: boolean }> {
  await d.begin('configure');
  d.unlessUnreachable('configure');
  // Adopted or repeated: the recipe as it is now is the base (docs/contract-rules.md, Versioning 4).
  const current = d.adopted ? made.recipe : await getRecipe(d.api, d.ws, made.id);
  // Step 5: a lost answer, or a refusal caused by another writer appending meanwhile, is
  // resolved by reading the recipe again and merging again.
  const configured = await appendConfiguration(d.api, d.ws, made.id, current, additions, spec.syncFrom, {
    retryTransient: true,
  });
  d.recipe = configured.recipe;
  d.tell({ step: 'configure', phase: 'done', addedAccounts: configured.addedAccounts, changed: configured.changed });
  return { id: made.id, recipe: configured.recipe, changed: configured.changed };
}

/** Step 6: a build started when the recipe needs one, or the one running joined, and waited for. */
async function build(
  d: Deployment,
  configured: { id: string; recipe: Recipe; changed: boolean },
): Promise<{ rescuable: boolean }> {
  const { id } = configured;
  let recipe = configured.recipe;
  await d.begin('build');
  const running = BUILDING_STATES.has(recipe.state ?? '');
  const needsBuild = !running && (configured.changed || recipe.state !== 'ready_to_work' || d.opts.rebuild);
  if (needsBuild) {
    d.unlessUnreachable('build');
    await startBuild(d.api, d.ws, id, recipe);
  }
  const progress = d.progress('build', recipe);
  if (needsBuild || running) recipe = await waitForBuild(d.api, d.ws, id, { ...d.waitLeft(), ...progress });
  d.recipe = recipe;
  // A build that found no data is not the end: step 7 builds once more when the tables exist.
  const rescuable = recipe.state === 'failed' && recipe.error?.code === 'no_data_delivered';
  d.tell({
    step: 'build',
    phase: 'done',
    build: needsBuild ? 'started' : running ? 'joined' : 'none',
    recipe,
    rebuildsWhenTablesExist: rescuable,
  });
  return { rescuable };
}

/** Step 7: the build found no data; once the extraction tables exist, build once more. */
async function rebuildWhenTablesExist(d: Deployment, id: string): Promise<void> {
  const { api, ws } = d;
  await d.begin('tables');
  await waitForTables(d, id);
  d.tell({ step: 'tables', phase: 'exist' });
  const before = await getRecipe(api, ws, id);
  d.unlessUnreachable('tables');
  await startBuild(api, ws, id, before);
  d.recipe = await waitForBuild(api, ws, id, { ...d.waitLeft(), ...d.progress('tables', before) });
  d.tell({ step: 'tables', phase: 'done', recipe: d.recipe });
}

/** Step 7's wait: until every extraction table of the recipe exists, within what is left of --wait-timeout. */
async function waitForTables(d: Deployment, id: string): Promise<void> {
  const { api, ws } = d;
  const timeoutMs = d.opts.wait.timeoutMs;
  const missingTables = (c: ExtractionCheck | undefined) =>
    (c?.tables ?? []).filter((t) => t.table_exists !== true).map((t) => String(t.table ?? t.data_source ?? '?'));
  const tables = (c: ExtractionCheck) => `missing ${missingTables(c).join(', ') || 'unknown'}`;
  await pollUntil(
    () => checkExtractions(api, ws, id),
    (c) => c.all_tables_exist === true,
    d.waitLeft(),
    {
      timeout: ({ last, lastAgeMs, unanswered }) =>
        new ExitError(
          'waitTimeout',
          `the build of recipe ${id} found no data, and its extraction tables ${
            last === undefined || lastAgeMs === undefined
              ? `were not read within ${durationText(timeoutMs)}: the service at ${originOf(api.client.baseUrl)} did not answer`
              : `do not all exist after ${durationText(timeoutMs)} (${tables(last)}, read ${agoText(lastAgeMs)}${unanswered ? '; the service did not answer the read after it' : ''})`
          }; check them with \`${extractionsCommand(id, ws)}\``,
        ),
      unreachable: ({ last, lastAgeMs, fault }) =>
        new WaitUnreachableError({
          origin: originOf(api.client.baseUrl),
          what: `the extraction check of recipe ${id}`,
          lastText: last === undefined ? undefined : tables(last),
          lastAgeMs,
          fault,
          goesOn: 'no build was started after the one that found no data',
          resume: `check the tables with \`${extractionsCommand(id, ws)}\`, then deploy again`,
        }),
      onFault: (f) => d.tell({ step: 'tables', phase: 'waiting', fault: f }),
      onRecover: () => d.tell({ step: 'tables', phase: 'waiting', fault: undefined }),
    },
  );
}

export interface PlannedRequest {
  method: string;
  path: string;
  body?: unknown;
}

/**
 * `--dry-run`: the reads run (a token is issued to read), the writes are only listed. An existing
 * recipe of the template is adopted and its configuration is the base, as in a real run.
 */
export async function planWorkspace(
  api: Service,
  ws: string,
  spec: DeploySpec,
  template: (ws: string) => Promise<RecipeTemplate>,
  rebuild: boolean,
) {
  const t = await template(ws);
  checkSourcesAllowed(t, spec);
  const requests: PlannedRequest[] = [];
  let existing: Recipe | undefined;
  for await (const r of listRecipes(api, ws, { templateId: idText(t.id) }, { limit: 1 })) existing = r;
  // A recipe not created yet has no id: the plan shows a placeholder.
  const recipe = { id: existing ? idText(existing.recipe_id) : '{recipe_id}' };
  if (!existing)
    requests.push({
      ...plannedRequest('recipes.create', {}),
      body: { template_id: t.id, title: spec.title ?? t.title },
    });
  const additions = await resolveAdditions(api, ws, spec, {
    id: existing ? idText(existing.recipe_id) : undefined,
    connections: existing?.connections,
  });
  const base: Configured = existing ?? NOT_CREATED;
  const merged = mergeConfiguration(base, additions, spec.syncFrom);
  if (merged.changed)
    requests.push({
      ...plannedRequest('recipes.configure', recipe),
      body: merged.config satisfies RecipeConfiguration,
    });
  if (!BUILDING_STATES.has(base.state ?? '') && (merged.changed || base.state !== 'ready_to_work' || rebuild))
    requests.push(plannedRequest('recipes.build', recipe));
  return { workspace_id: ws, template_id: t.id, recipe_id: existing?.recipe_id ?? null, requests };
}
