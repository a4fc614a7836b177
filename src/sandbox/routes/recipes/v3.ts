import type { FastifyInstance, FastifyReply, FastifyRequest, RouteGenericInterface } from 'fastify';
import { recipeConfigurationV3, recipeCreate, recipeListQueryV3, searchQuery } from '../../../contract/requests.js';
import { SandboxError } from '../../errors.js';
import { paginate, parseBody, queryOf, type IdParams } from '../../http.js';
import type { Store } from '../../store.js';
import type { BuildEngine } from './engine.js';
import { compareRecipeIds, recipeIdJson } from './model.js';
import { V3_STATE, type RecipeState } from '../../../contract/recipes.js';
import {
  OtherWorkspaceRecipe,
  buildRecipe,
  checkExtractions,
  configureRecipe,
  createRecipe,
  deleteRecipe,
  findRecipe,
  findTemplate,
  recipeCaller,
  resetupRecipe,
} from './operations.js';
import { v3Recipe, v3Template } from './views.js';
import { serve } from '../../operations.js';

type Handler<R extends RouteGenericInterface> = (request: FastifyRequest<R>, reply: FastifyReply) => Promise<unknown>;

/** Codes v3 answers with 400 and a `{detail}` body: v3.1 moved contradictions of state to 409. */
const CONFLICTS_AS_400 = new Set([
  'recipe_already_exists',
  'view_name_taken',
  'template_not_deployable',
  'data_source_removal_not_allowed',
  'connection_removal_not_allowed',
  'account_removal_not_allowed',
  'recipe_not_configured',
  'build_already_running',
  'recipe_template_unavailable',
  'no_active_destination',
  'destination_not_supported',
]);

/**
 * The v3 form of an error raised in v3.1 terms (docs/contract-rules.md, The v3-vs-v3.1 table). The envelope itself
 * is chosen by URL.
 */
function toV3(store: Store, err: unknown, operation: 'extractions' | 'other'): unknown {
  if (!(err instanceof SandboxError)) return err;
  if (err instanceof OtherWorkspaceRecipe)
    return new SandboxError(403, 'permission_denied', 'You do not have permission to access this recipe.');
  if (operation === 'extractions') {
    // v3: 503 when the destination cannot be queried, also when none exists; 501 when it cannot
    // report tables. Every 503 carries Retry-After (docs/contract-rules.md, Status meaning).
    if (err.code === 'no_active_destination') {
      return new SandboxError(
        503,
        err.code,
        'The destination could not be queried: the workspace has no active destination.',
        {},
        {},
        { 'retry-after': String(store.opts.retryAfter) },
      );
    }
    if (err.code === 'destination_not_supported') return new SandboxError(501, err.code, err.message);
  }
  if (CONFLICTS_AS_400.has(err.code)) return new SandboxError(400, err.code, err.message, err.details, err.v3Extra);
  return err;
}

function v3<R extends RouteGenericInterface>(
  store: Store,
  operation: 'extractions' | 'other',
  handler: Handler<R>,
): Handler<R> {
  return async (request, reply) => {
    if (store.state.recipe_v3_switched_off)
      throw new SandboxError(410, 'gone', 'The v3 automated recipe operations are switched off; use /api/v3.1/.');
    try {
      return await handler(request, reply);
    } catch (err) {
      throw toV3(store, err, operation);
    }
  };
}

/** Automated recipes, v3 (deprecated): the same recipes with v3's shapes and statuses. */
export function v3Routes(app: FastifyInstance, store: Store, engine: BuildEngine): void {
  const s = () => store.state;

  serve(
    app,
    'v3.recipeTemplates.list',
    { config: { query: searchQuery } },
    v3(store, 'other', async (request) => {
      recipeCaller(store, request);
      const needle = queryOf(request).search?.trim().toLowerCase();
      const items = s()
        .recipe_templates.filter(
          (t) => !needle || t.title.toLowerCase().includes(needle) || t.description.toLowerCase().includes(needle),
        )
        .sort((a, b) => a.id - b.id)
        .map((t) => v3Template(store, t, false));
      return paginate(request, items, { mode: 'v3', maxPageSize: 100 });
    }),
  );

  serve<{ Params: IdParams }>(
    app,
    'v3.recipeTemplates.get',
    v3(store, 'other', async (request) => {
      recipeCaller(store, request);
      return v3Template(store, findTemplate(store, request.params.id), true);
    }),
  );

  // Unknown `state` matches nothing (exact, case-sensitive); page_size above 100 is capped; a page past the end is 404.
  serve(
    app,
    'v3.recipes.list',
    { config: { query: recipeListQueryV3 } },
    v3(store, 'other', async (request) => {
      const ws = recipeCaller(store, request);
      const q = queryOf(request);
      const items = s()
        .recipes.filter(
          (r) =>
            r.workspace_id === ws &&
            (q.state === undefined || (r.state !== null && V3_STATE[r.state as RecipeState] === q.state)) &&
            (q.template_id === undefined || String(r.template_id) === q.template_id),
        )
        .sort((a, b) => compareRecipeIds(a.id, b.id))
        .map((r) => v3Recipe(store, r, true));
      return paginate(request, items, { mode: 'v3', maxPageSize: 100 });
    }),
  );

  serve(
    app,
    'v3.recipes.create',
    { config: { body: recipeCreate } },
    v3(store, 'other', async (request, reply) => {
      const ws = recipeCaller(store, request);
      const recipe = createRecipe(store, ws, parseBody(recipeCreate, request.body));
      return reply.code(201).send({ recipe_id: recipeIdJson(recipe.id), datatable_id: recipe.datatable_id });
    }),
  );

  serve<{ Params: IdParams }>(
    app,
    'v3.recipes.get',
    v3(store, 'other', async (request) => {
      const ws = recipeCaller(store, request);
      return v3Recipe(store, findRecipe(store, ws, request.params.id), false);
    }),
  );

  serve<{ Params: IdParams }>(
    app,
    'v3.recipes.configure',
    { config: { body: recipeConfigurationV3 } },
    v3(store, 'other', async (request, reply) => {
      const ws = recipeCaller(store, request);
      const recipe = findRecipe(store, ws, request.params.id);
      configureRecipe(store, recipe, parseBody(recipeConfigurationV3, request.body));
      return reply.code(200).send();
    }),
  );

  // v3 answers 204 even when the recipe was not deleted.
  serve<{ Params: IdParams }>(
    app,
    'v3.recipes.delete',
    { config: {} },
    v3(store, 'other', async (request, reply) => {
      const ws = recipeCaller(store, request);
      deleteRecipe(store, findRecipe(store, ws, request.params.id), { incomplete: 'silent' });
      return reply.code(204).send();
    }),
  );

  serve<{ Params: IdParams }>(
    app,
    'v3.recipes.build',
    v3(store, 'other', async (request) => {
      const ws = recipeCaller(store, request);
      buildRecipe(store, engine, findRecipe(store, ws, request.params.id));
      return { status: 'started', message: 'The build has started.' };
    }),
  );

  serve<{ Params: IdParams }>(
    app,
    'v3.recipes.resetup',
    v3(store, 'other', async (request) => {
      const ws = recipeCaller(store, request);
      const recipe = resetupRecipe(store, engine, findRecipe(store, ws, request.params.id));
      return { status: 'started', recipe_id: recipeIdJson(recipe.id) };
    }),
  );

  serve<{ Params: IdParams }>(
    app,
    'v3.recipes.extractions',
    v3(store, 'extractions', async (request) => {
      const ws = recipeCaller(store, request);
      const sources = checkExtractions(store, findRecipe(store, ws, request.params.id));
      return { ready: sources.every((t) => t.table_exists), sources };
    }),
  );
}
