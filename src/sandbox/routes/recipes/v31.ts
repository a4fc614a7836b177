import type { FastifyInstance, preHandlerHookHandler } from 'fastify';
import {
  recipeConfigurationV31,
  recipeCreate,
  recipeListQueryV31,
  searchQueryV31,
} from '../../../contract/requests.js';
import { invalidQuery } from '../../errors.js';
import { paginate, parseBody, queryOf, type IdParams } from '../../http.js';
import type { Store } from '../../store.js';
import type { BuildEngine } from './engine.js';
import { compareRecipeIds } from './model.js';
import {
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
import { v31Recipe, v31Template } from './views.js';
import { RECIPE_STATES } from '../../../contract/recipes.js';
import { serve } from '../../operations.js';

/**
 * Automated recipes, v3.1 (docs/contract-rules.md, Automated recipes v3.1). Every path ends with a slash.
 * `failTemplateRead` runs before the template reads (the sandbox's template read fault).
 */
export function v31Routes(
  app: FastifyInstance,
  store: Store,
  engine: BuildEngine,
  failTemplateRead: preHandlerHookHandler,
): void {
  const s = () => store.state;

  serve(
    app,
    'recipeTemplates.list',
    { config: { query: searchQueryV31 }, preHandler: failTemplateRead },
    async (request) => {
      recipeCaller(store, request);
      const search = queryOf(request).search;
      if (search !== undefined && search.trim() === '') throw invalidQuery('search', [], 'search must not be blank.');
      const needle = search?.trim().toLowerCase();
      const items = s()
        .recipe_templates.filter(
          (t) => !needle || t.title.toLowerCase().includes(needle) || t.description.toLowerCase().includes(needle),
        )
        .sort((a, b) => a.id - b.id)
        .map(v31Template);
      return paginate(request, items, { mode: 'v31' });
    },
  );

  serve<{ Params: IdParams }>(app, 'recipeTemplates.get', { preHandler: failTemplateRead }, async (request) => {
    recipeCaller(store, request);
    return v31Template(findTemplate(store, request.params.id));
  });

  serve(app, 'recipes.list', { config: { query: recipeListQueryV31 } }, async (request) => {
    const ws = recipeCaller(store, request);
    const q = queryOf(request);
    if (q.state !== undefined && !(RECIPE_STATES as readonly string[]).includes(q.state)) {
      throw invalidQuery('state', [...RECIPE_STATES], `Unknown state "${q.state}".`);
    }
    if (q.template_id !== undefined && !/^\d{1,15}$/.test(q.template_id))
      throw invalidQuery('template_id', [], 'template_id must be an integer.');
    const items = s()
      .recipes.filter(
        (r) =>
          r.workspace_id === ws &&
          (q.state === undefined || r.state === q.state) &&
          (q.template_id === undefined || r.template_id === Number(q.template_id)),
      )
      .sort((a, b) => compareRecipeIds(a.id, b.id))
      .map(v31Recipe);
    return paginate(request, items, { mode: 'v31', maxPageSize: 100 });
  });

  serve(app, 'recipes.create', { config: { body: recipeCreate } }, async (request, reply) => {
    const ws = recipeCaller(store, request);
    const body = parseBody(recipeCreate, request.body);
    return reply.code(201).send(v31Recipe(createRecipe(store, ws, body)));
  });

  serve<{ Params: IdParams }>(app, 'recipes.get', async (request) => {
    const ws = recipeCaller(store, request);
    return v31Recipe(findRecipe(store, ws, request.params.id));
  });

  serve<{ Params: IdParams }>(
    app,
    'recipes.configure',
    { config: { body: recipeConfigurationV31 } },
    async (request) => {
      const ws = recipeCaller(store, request);
      const recipe = findRecipe(store, ws, request.params.id);
      const body = parseBody(recipeConfigurationV31, request.body);
      return v31Recipe(configureRecipe(store, recipe, body));
    },
  );

  serve<{ Params: IdParams }>(app, 'recipes.delete', { config: {} }, async (request, reply) => {
    const ws = recipeCaller(store, request);
    deleteRecipe(store, findRecipe(store, ws, request.params.id), { incomplete: 'error' });
    return reply.code(204).send();
  });

  serve<{ Params: IdParams }>(app, 'recipes.build', { config: {} }, async (request, reply) => {
    const ws = recipeCaller(store, request);
    const recipe = buildRecipe(store, engine, findRecipe(store, ws, request.params.id));
    return reply.code(202).send(v31Recipe(recipe));
  });

  serve<{ Params: IdParams }>(app, 'recipes.resetup', { config: {} }, async (request, reply) => {
    const ws = recipeCaller(store, request);
    const recipe = resetupRecipe(store, engine, findRecipe(store, ws, request.params.id));
    return reply.code(202).send(v31Recipe(recipe));
  });

  serve<{ Params: IdParams }>(app, 'recipes.extractions', async (request) => {
    const ws = recipeCaller(store, request);
    const tables = checkExtractions(store, findRecipe(store, ws, request.params.id));
    return { all_tables_exist: tables.every((t) => t.table_exists), tables };
  });
}
