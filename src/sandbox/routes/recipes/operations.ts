import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { recipeCreate } from '../../../contract/requests.js';
import { idOf } from '../../../util/json.js';
import { SandboxError, forbidden, validationError, type FieldError } from '../../errors.js';
import { requireBearer } from '../../http.js';
import type { Store } from '../../store.js';
import type { BuildEngine } from './engine.js';
import { buildError } from './build-errors.js';
import { emitDataTable } from '../../payloads.js';
import { recipeEventData, transformationEventData } from './events.js';
import {
  compareRecipeIds,
  isBuilding,
  isConfigured,
  nextRecipeId,
  normalizeRecipeId,
  recipeIdJson,
  viewNameOf,
  type Recipe,
  type RecipeConnection,
  type RecipeTemplate,
} from './model.js';

/**
 * The recipe operations both API versions share. Errors are raised in their v3.1 form
 * (status, code, details); the v3 routes translate them (docs/contract-rules.md, The v3-vs-v3.1 table).
 */

/** A recipe of another workspace: 404 in v3.1, 403 in v3 (docs/contract-rules.md, Rules 7; The v3-vs-v3.1 table). */
export class OtherWorkspaceRecipe extends SandboxError {
  constructor() {
    super(404, 'not_found', 'No such recipe in this workspace.');
  }
}

/** Bearer authentication, then the agency's recipe pipeline flag (403 `permission_denied`). */
export function recipeCaller(store: Store, request: FastifyRequest): number {
  const { workspaceId } = requireBearer(store, request);
  if (!store.state.agency.flags.recipe_pipeline) throw forbidden('The recipe pipeline is disabled for this agency.');
  return workspaceId;
}

export function findTemplate(store: Store, raw: string): RecipeTemplate {
  const t = /^\d{1,15}$/.test(raw) ? store.state.recipe_templates.find((x) => x.id === Number(raw)) : undefined;
  if (!t) throw new SandboxError(404, 'not_found', 'No such template.');
  return t;
}

export function findRecipe(store: Store, workspaceId: number, raw: string): Recipe {
  const id = normalizeRecipeId(raw);
  const recipe = id === undefined ? undefined : store.state.recipes.find((r) => r.id === id);
  if (!recipe) throw new SandboxError(404, 'not_found', 'No such recipe in this workspace.');
  if (recipe.workspace_id !== workspaceId) throw new OtherWorkspaceRecipe();
  return recipe;
}

function templateOf(store: Store, recipe: Recipe): RecipeTemplate {
  return store.state.recipe_templates.find((t) => t.id === recipe.template_id)!;
}

/** Other holders of an output name in the workspace: recipes, and names held outside the API. */
function viewNameHolders(store: Store, workspaceId: number, viewName: string, except?: string): string[] {
  const ids = store.state.recipes
    .filter((r) => r.workspace_id === workspaceId && r.view_name === viewName && r.id !== except)
    .map((r) => r.id);
  for (const c of store.state.recipe_view_claims) {
    if (c.workspace_id === workspaceId && c.view_name === viewName && c.recipe_id !== except) ids.push(c.recipe_id);
  }
  return ids;
}

function viewNameTaken(viewName: string, holders: string[]): SandboxError {
  return new SandboxError(
    409,
    'view_name_taken',
    `Another recipe holds the output table name "${viewName}".`,
    { view_name: viewName, conflicting_recipe_ids: holders.map(recipeIdJson) },
    { conflicting_recipe_ids: holders.map(recipeIdJson) },
  );
}

/** The workspace's active destination must exist and host recipes (create, delete, extractions). */
function requireRecipeDestination(store: Store, workspaceId: number): { reportsTables: boolean } {
  const dc = store.state.destination_connections.find((d) => d.workspace_id === workspaceId && d.status === 'active');
  if (!dc) throw new SandboxError(409, 'no_active_destination', 'The workspace has no active destination.');
  const destination = store.state.destinations.find((d) => d.name === dc.destination_name);
  if (!destination?.supports_recipes)
    throw new SandboxError(
      409,
      'destination_not_supported',
      `The destination "${dc.destination_name}" cannot host recipes.`,
    );
  return { reportsTables: destination.reports_tables };
}

/** Takes one armed one-shot fault, if any. */
function takeFault(
  store: Store,
  name:
    | 'data_table_reservation_failed'
    | 'account_check_unavailable'
    | 'delete_incomplete'
    | 'destination_unavailable'
    | 'existing_ids_lost',
): boolean {
  const faults = store.state.recipe_faults;
  if (faults[name] <= 0) return false;
  faults[name] -= 1;
  return true;
}

/**
 * A one-shot fault that is a 503 of its own name: armed, it answers this request with `message`.
 * Retry-After: the contract says 30 s; the sandbox's --retry-after sets it, as for its other 503s.
 */
function failOnce(
  store: Store,
  name: 'data_table_reservation_failed' | 'account_check_unavailable' | 'destination_unavailable',
  message: string,
): void {
  if (takeFault(store, name))
    throw new SandboxError(
      503,
      name,
      message,
      {},
      {},
      {
        'retry-after': String(store.opts.retryAfter),
      },
    );
}

// ---------------------------------------------------------------- create

/** Ordered best first: configured and built recipes before the rest, then by age (docs/contract-rules.md, Rules 3). */
function bestFirst(a: Recipe, b: Recipe): number {
  const score = (r: Recipe) =>
    (r.intermediate ? 0 : 4) + (isConfigured(r) ? 2 : 0) + (r.state === 'ready_to_work' ? 1 : 0);
  return score(b) - score(a) || compareRecipeIds(a.id, b.id);
}

export function createRecipe(store: Store, workspaceId: number, body: z.infer<typeof recipeCreate>): Recipe {
  const s = store.state;
  const templateId = idOf(body.template_id)!;
  const template = s.recipe_templates.find((t) => t.id === templateId);
  if (!template)
    throw new SandboxError(400, 'template_not_found', `No template ${templateId} for this agency.`, {
      template_id: templateId,
    });
  if (!template.deployable)
    throw new SandboxError(
      409,
      'template_not_deployable',
      `Template ${templateId} carries no deployable configuration.`,
      { template_id: templateId },
    );
  const existing = s.recipes
    .filter((r) => r.workspace_id === workspaceId && r.template_id === templateId)
    .sort(bestFirst);
  if (existing.length > 0) {
    const ids = takeFault(store, 'existing_ids_lost') ? [] : existing.map((r) => recipeIdJson(r.id));
    throw new SandboxError(
      409,
      'recipe_already_exists',
      `The workspace already has a recipe from template ${templateId}.`,
      { existing_recipe_ids: ids },
      { existing_recipe_ids: [...ids].reverse() },
    );
  }
  const viewName = viewNameOf(template.title);
  const holders = viewNameHolders(store, workspaceId, viewName);
  if (holders.length > 0) throw viewNameTaken(viewName, holders);
  requireRecipeDestination(store, workspaceId);
  failOnce(store, 'data_table_reservation_failed', 'The output table could not be reserved; nothing was created.');
  const now = store.clock.iso();
  const recipe: Recipe = {
    id: nextRecipeId(store),
    workspace_id: workspaceId,
    template_id: templateId,
    title: body.title,
    view_name: viewName,
    datatable_id: store.nextId('data_table'),
    state: null,
    error: null,
    created_at: now,
    configured_at: null,
    last_build_at: null,
    degraded: false,
    not_delivered_reasons: [],
    sources: [],
    data_sources: [],
    connections: [],
    sync_from_date: null,
    steps_revision: template.revision,
    intermediate_ids: [],
    intermediate: false,
    build: null,
  };
  s.recipes.push(recipe);
  const table = {
    id: recipe.datatable_id,
    workspace_id: workspaceId,
    title: recipe.title,
    sql_name: viewName,
    datasource_name: null,
    created_at: now,
  };
  s.data_tables.push(table);
  emitDataTable(store, 'data_table_created', table);
  store.emit(
    'transformation_created',
    workspaceId,
    'Transformation',
    transformationEventData(store, recipe, 'created', 0),
  );
  store.changed();
  return recipe;
}

// ---------------------------------------------------------------- configure

export interface ConfigurationBody {
  data_sources: string[];
  connections: Array<{
    connection_id: unknown;
    connection_data_source: string;
    accounts: Array<{ id: unknown; account_id?: string | number | undefined }>;
  }>;
  sync_from_date?: string | null | undefined;
}

const pairKey = (connectionId: number, ds: string) => `${connectionId}/${ds}`;

/**
 * Checks a complete configuration against the template and the stored one, rule by rule in the
 * catalogue's order, and reports only the first failing rule (docs/contract-rules.md, Codes of
 * specific operations). Accounts and connections already configured are not re-checked: the
 * configuration only grows, so one that went inactive since must stay listed.
 */
export function configureRecipe(store: Store, recipe: Recipe, body: ConfigurationBody): Recipe {
  const s = store.state;
  const template = templateOf(store, recipe);
  const dataSources = [...new Set(body.data_sources)];
  const connections: RecipeConnection[] = body.connections.map((c) => ({
    connection_id: idOf(c.connection_id)!,
    connection_data_source: c.connection_data_source,
    account_ids: c.accounts.map((a) => idOf(a.id)!),
  }));

  const duplicateAccounts: FieldError[] = [];
  connections.forEach((c, i) => {
    c.account_ids.forEach((id, j) => {
      if (c.account_ids.indexOf(id) !== j)
        duplicateAccounts.push({
          field: `connections[${i}].accounts[${j}].id`,
          code: 'duplicate',
          message: `Account ${id} is listed twice.`,
        });
    });
  });
  if (duplicateAccounts.length > 0) throw validationError(duplicateAccounts);

  const notAllowed = dataSources.filter((ds) => !template.data_sources.includes(ds));
  if (notAllowed.length > 0) {
    throw new SandboxError(
      400,
      'data_source_not_allowed',
      `Data source(s) not allowed by the template: ${notAllowed.join(', ')}.`,
      { data_sources: notAllowed },
    );
  }

  const notSelected = connections
    .map((c, index) => ({ index, connection_id: c.connection_id, connection_data_source: c.connection_data_source }))
    .filter((c) => !dataSources.includes(c.connection_data_source));
  if (notSelected.length > 0) {
    throw new SandboxError(
      400,
      'connection_data_source_not_selected',
      "A connection's data source is not among data_sources.",
      { connections: notSelected },
    );
  }

  const seen = new Set<string>();
  const duplicates: Array<{ index: number; connection_id: number; connection_data_source: string }> = [];
  connections.forEach((c, index) => {
    const key = pairKey(c.connection_id, c.connection_data_source);
    if (seen.has(key))
      duplicates.push({ index, connection_id: c.connection_id, connection_data_source: c.connection_data_source });
    seen.add(key);
  });
  if (duplicates.length > 0)
    throw new SandboxError(400, 'duplicate_connection', 'The same connection is listed twice.', {
      connections: duplicates,
    });

  const withoutConnection = dataSources.filter(
    (ds) => !recipe.data_sources.includes(ds) && !connections.some((c) => c.connection_data_source === ds),
  );
  if (withoutConnection.length > 0) {
    throw new SandboxError(
      400,
      'data_source_without_connection',
      `New data source(s) without a connection: ${withoutConnection.join(', ')}.`,
      { data_sources: withoutConnection },
    );
  }

  const stored = new Map(recipe.connections.map((c) => [pairKey(c.connection_id, c.connection_data_source), c]));
  for (const c of connections) {
    if (stored.has(pairKey(c.connection_id, c.connection_data_source))) continue;
    const connection = s.connections.find((x) => x.id === c.connection_id);
    if (
      !connection ||
      connection.deleted ||
      connection.workspace_id !== recipe.workspace_id ||
      connection.datasource_name !== c.connection_data_source
    ) {
      throw new SandboxError(
        404,
        'not_found',
        `No ${c.connection_data_source} connection ${c.connection_id} in this workspace.`,
      );
    }
  }

  failOnce(store, 'account_check_unavailable', 'The accounts could not be checked; nothing was saved.');
  const unavailable: Array<{ connection_id: number; connection_data_source: string; accounts: Array<{ id: number }> }> =
    [];
  body.connections.forEach((raw, i) => {
    const c = connections[i]!;
    const before = stored.get(pairKey(c.connection_id, c.connection_data_source))?.account_ids ?? [];
    const bad = raw.accounts.filter((a, j) => {
      const id = c.account_ids[j]!;
      if (before.includes(id)) return false;
      const account = s.accounts.find((x) => x.id === id);
      if (
        !account ||
        !account.is_active ||
        account.connection_id !== c.connection_id ||
        account.workspace_id !== recipe.workspace_id
      )
        return true;
      // v3 sends the remote id beside the internal one; another key for it is refused the same way
      // (docs/contract-rules.md, Versioning 4).
      return a.account_id !== undefined && String(a.account_id) !== account.account_id;
    });
    if (bad.length > 0) {
      unavailable.push({
        connection_id: c.connection_id,
        connection_data_source: c.connection_data_source,
        accounts: bad.map((a) => ({ id: idOf(a.id)! })),
      });
    }
  });
  if (unavailable.length > 0) {
    throw new SandboxError(
      400,
      'account_unavailable',
      'Some accounts are unknown, inactive, or belong to another connection or workspace.',
      { connections: unavailable },
    );
  }

  const removedSources = recipe.data_sources.filter((ds) => !dataSources.includes(ds));
  if (removedSources.length > 0) {
    throw new SandboxError(
      409,
      'data_source_removal_not_allowed',
      `Data sources cannot be removed (${removedSources.join(', ')}); only new ones may be added.`,
      { data_sources: removedSources },
      { data_sources: removedSources },
    );
  }
  const incoming = new Map(connections.map((c) => [pairKey(c.connection_id, c.connection_data_source), c]));
  const removedConnections = recipe.connections.filter(
    (c) => !incoming.has(pairKey(c.connection_id, c.connection_data_source)),
  );
  if (removedConnections.length > 0) {
    throw new SandboxError(
      409,
      'connection_removal_not_allowed',
      'Connections cannot be removed; only new ones may be added.',
      {
        connections: removedConnections.map((c) => ({
          connection_id: c.connection_id,
          connection_data_source: c.connection_data_source,
        })),
      },
      {
        connections: removedConnections.map(
          (c) =>
            `Connection ${c.connection_id} (${c.connection_data_source}) cannot be removed; only new connections and accounts may be added.`,
        ),
      },
    );
  }
  const removedAccounts = recipe.connections
    .map((c) => ({
      c,
      missing: c.account_ids.filter(
        (id) => !incoming.get(pairKey(c.connection_id, c.connection_data_source))!.account_ids.includes(id),
      ),
    }))
    .filter((x) => x.missing.length > 0);
  if (removedAccounts.length > 0) {
    throw new SandboxError(
      409,
      'account_removal_not_allowed',
      'Accounts cannot be removed; only new ones may be added.',
      {
        connections: removedAccounts.map(({ c, missing }) => ({
          connection_id: c.connection_id,
          connection_data_source: c.connection_data_source,
          accounts: missing.map((id) => ({ id })),
        })),
      },
      {
        connections: removedAccounts.map(
          ({ c, missing }) =>
            `Accounts ${missing.join(', ')} of connection ${c.connection_id} (${c.connection_data_source}) cannot be removed; only new accounts may be added.`,
        ),
      },
    );
  }

  recipe.data_sources = dataSources;
  recipe.connections = connections;
  if (body.sync_from_date !== undefined) recipe.sync_from_date = body.sync_from_date;
  recipe.configured_at = store.clock.iso();
  store.changed();
  return recipe;
}

// ---------------------------------------------------------------- build, resetup

function requireBuildable(store: Store, recipe: Recipe, extra: Record<string, unknown> = {}): void {
  if (isBuilding(recipe))
    throw new SandboxError(409, 'build_already_running', 'A build of this recipe is running.', extra);
  const holders = viewNameHolders(store, recipe.workspace_id, recipe.view_name, recipe.id).filter(
    (id) => !recipe.intermediate_ids.includes(id),
  );
  if (holders.length > 0) throw viewNameTaken(recipe.view_name, holders);
}

export function buildRecipe(store: Store, engine: BuildEngine, recipe: Recipe): Recipe {
  if (!isConfigured(recipe))
    throw new SandboxError(
      409,
      'recipe_not_configured',
      'The recipe has no data sources or connections yet; configure it first.',
    );
  requireBuildable(store, recipe);
  engine.start(recipe);
  return recipe;
}

/** Recreates the steps from the current template, keeps the configuration, starts the build. */
export function resetupRecipe(store: Store, engine: BuildEngine, recipe: Recipe): Recipe {
  if (!isConfigured(recipe))
    throw new SandboxError(
      409,
      'recipe_not_configured',
      'The recipe has no data sources or connections yet; configure it first.',
    );
  const template = templateOf(store, recipe);
  if (!template.deployable)
    throw new SandboxError(409, 'recipe_template_unavailable', "The recipe's template can no longer be deployed.");
  const updated = recipe.steps_revision !== template.revision;
  recipe.steps_revision = template.revision;
  if (updated) store.changed();
  // recipe_updated: the steps were recreated and only the build did not start (docs/contract-rules.md, Codes
  // of specific operations).
  requireBuildable(store, recipe, { recipe_updated: updated });
  engine.start(recipe);
  return recipe;
}

// ---------------------------------------------------------------- delete

/**
 * Removes the recipe, its output table and the intermediate recipes it was built on (downwards,
 * shared ones too) and frees the template slot; a recipe built on top of a deleted one stays and
 * breaks. Extractions the build started keep running (docs/contract-rules.md, Rules 4).
 */
export function deleteRecipe(store: Store, recipe: Recipe, opts: { incomplete: 'error' | 'silent' }): boolean {
  const s = store.state;
  requireRecipeDestination(store, recipe.workspace_id);
  if (takeFault(store, 'delete_incomplete')) {
    if (opts.incomplete === 'silent') return false;
    throw new SandboxError(500, 'delete_incomplete', 'The recipe itself could not be deleted.', {
      recipe_id: recipeIdJson(recipe.id),
    });
  }
  const doomed = new Set<string>();
  const collect = (r: Recipe) => {
    if (doomed.has(r.id)) return;
    doomed.add(r.id);
    for (const id of r.intermediate_ids) {
      const dep = s.recipes.find((x) => x.id === id);
      if (dep) collect(dep);
    }
  };
  collect(recipe);
  const now = store.clock.iso();
  for (const r of s.recipes) {
    if (doomed.has(r.id) || !r.intermediate_ids.some((id) => doomed.has(id))) continue;
    r.intermediate_ids = r.intermediate_ids.filter((id) => !doomed.has(id));
    r.error = buildError('sql_object_not_found', now, {
      stage: 'final_build',
      message: 'a table this recipe reads from does not exist',
      details: { missing_column: null },
    });
    r.state = 'failed';
  }
  const doomedTables = new Set(s.recipes.filter((r) => doomed.has(r.id)).map((r) => r.datatable_id));
  for (const r of s.recipes.filter((x) => doomed.has(x.id))) {
    store.emit(
      'recipe_deactivated',
      r.workspace_id,
      'Recipe',
      recipeEventData(r, { description: `Recipe "${r.title}" was deleted.`, manualDeactivation: true }),
    );
  }
  for (const t of s.data_tables.filter((d) => doomedTables.has(d.id))) {
    emitDataTable(store, 'data_table_marked_as_deleting', t);
  }
  s.recipes = s.recipes.filter((r) => !doomed.has(r.id));
  s.data_tables = s.data_tables.filter((d) => !doomedTables.has(d.id));
  store.changed();
  return true;
}

// ---------------------------------------------------------------- extraction check

export interface TableCheck {
  data_source: string;
  table: string;
  table_exists: boolean;
  extraction_ids: number[];
}

/**
 * One entry per table the last build's extractions deliver into (a source with several tables
 * repeats); a table exists once one of its extractions delivered. Queried each time, no cache
 * (docs/contract-rules.md, Rules 6).
 */
export function checkExtractions(store: Store, recipe: Recipe): TableCheck[] {
  const { reportsTables } = requireRecipeDestination(store, recipe.workspace_id);
  if (!reportsTables)
    throw new SandboxError(501, 'destination_check_unsupported', 'The destination cannot report whether tables exist.');
  failOnce(store, 'destination_unavailable', 'The destination could not be queried.');
  const tables = new Map<number, TableCheck>();
  for (const id of recipe.build?.extraction_ids ?? []) {
    const e = store.state.extracts.find((x) => x.id === id);
    if (!e) continue;
    const table = store.state.data_tables.find((d) => d.id === e.data_table_id);
    let entry = tables.get(e.data_table_id);
    if (!entry) {
      entry = {
        data_source: e.datasource_name,
        table: table?.sql_name ?? String(e.data_table_id),
        table_exists: false,
        extraction_ids: [],
      };
      tables.set(e.data_table_id, entry);
    }
    entry.extraction_ids.push(e.id);
    if (e.delivered && table) entry.table_exists = true;
  }
  return [...tables.values()].sort(
    (a, b) => a.data_source.localeCompare(b.data_source) || a.table.localeCompare(b.table),
  );
}
