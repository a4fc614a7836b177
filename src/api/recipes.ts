import { jsonInteger } from '../util/json.js';
import type { Received, ReceivedWith } from '../contract/answers.js';
import type { recipeConfigurationV31, recipeCreate, Sent } from '../contract/requests.js';
import { path } from './path.js';
import type { ListOptions, Service } from './service.js';

/**
 * Automated recipes. The tool uses the v3.1 operations for accounts and recipes (v3 is
 * deprecated, and only v3.1 account ids are valid in a configuration); the v3 paths are kept here too, since both versions serve the same recipes and
 * `edp api` reaches v3. Every path ends with a slash: without it the service answers 301.
 */
export type RecipeApiVersion = 'v3' | 'v3.1';

export function recipePaths(version: RecipeApiVersion = 'v3.1') {
  const base = version === 'v3.1' ? '/api/v3.1' : '/api/v3';
  return {
    templates: () => `${base}/automated-recipe-templates/`,
    template: (id: string) => base + path`/automated-recipe-templates/${id}/`,
    recipes: () => `${base}/automated-recipes/`,
    recipe: (id: string) => base + path`/automated-recipes/${id}/`,
    build: (id: string) => base + path`/automated-recipes/${id}/build/`,
    resetup: (id: string) => base + path`/automated-recipes/${id}/resetup/`,
    extractions: (id: string) => base + path`/automated-recipes/${id}/extractions/`,
  };
}

const v31 = recipePaths('v3.1');

export type RecipeTemplate = ReceivedWith<
  'RecipeTemplate',
  {
    description?: string;
    data_sources?: string[];
    output_columns?: Array<{ name: string; type?: string }>;
  }
>;

export type BuildError = Received<'BuildError'>;

export type SourceEntry = Received<'SourceEntry'>;

export interface RecipeAccountRef {
  id: unknown;
}

export interface RecipeConnection {
  connection_id: unknown;
  connection_data_source: string;
  accounts: RecipeAccountRef[];
}

/** A v3.1 recipe. `recipe_id` is a large integer: kept as the parser gave it, shown with idText. */
export type Recipe = ReceivedWith<
  'Recipe',
  {
    error?: BuildError | null;
    last_build_at?: string | null;
    sources?: SourceEntry[];
    connections?: RecipeConnection[];
    not_delivered_reasons?: string[];
  }
>;

/** The complete configuration a recipe is given (v3.1 accounts are `{id}`). */
export type RecipeConfiguration = Sent<typeof recipeConfigurationV31>;

export type ExtractionCheck = ReceivedWith<'ExtractionCheck', { tables: Array<Record<string, unknown>> }>;

export function listTemplates(
  api: Service,
  ws: string,
  query: { search?: string | undefined } = {},
  opts?: ListOptions,
): AsyncGenerator<RecipeTemplate> {
  return api.list<RecipeTemplate>(
    { path: v31.templates(), auth: 'bearer', workspaceId: ws, query: { search: query.search } },
    opts,
  );
}

export function getTemplate(api: Service, ws: string, id: string): Promise<RecipeTemplate> {
  return api.client.get<RecipeTemplate>(v31.template(id), 'bearer', ws, ['id']);
}

export function listRecipes(
  api: Service,
  ws: string,
  query: { state?: string | undefined; templateId?: string | undefined } = {},
  opts?: ListOptions,
): AsyncGenerator<Recipe> {
  return api.list<Recipe>(
    {
      path: v31.recipes(),
      auth: 'bearer',
      workspaceId: ws,
      query: { state: query.state, template_id: query.templateId },
      pageSize: 100,
    },
    opts,
  );
}

export function getRecipe(api: Service, ws: string, id: string): Promise<Recipe> {
  return api.client.get<Recipe>(v31.recipe(id), 'bearer', ws, ['recipe_id']);
}

/**
 * Not repeated on a lost answer: a repeat answers 409 recipe_already_exists if the first landed
 * (docs/contract-rules.md, Retries 3).
 */
export async function createRecipe(
  api: Service,
  ws: string,
  body: { templateId: string; title: string },
): Promise<Recipe> {
  const res = await api.client.request<Recipe>({
    method: 'POST',
    path: v31.recipes(),
    auth: 'bearer',
    workspaceId: ws,
    body: { template_id: jsonInteger(body.templateId), title: body.title } satisfies Sent<typeof recipeCreate>,
    expect: ['recipe_id'],
  });
  return res.data;
}

/** The complete configuration; repeating the same PUT is harmless (docs/contract-rules.md, Retries 3). */
export async function configureRecipe(
  api: Service,
  ws: string,
  id: string,
  config: RecipeConfiguration,
): Promise<Recipe> {
  const res = await api.client.request<Recipe>({
    method: 'PUT',
    path: v31.recipe(id),
    auth: 'bearer',
    workspaceId: ws,
    body: config,
    repeatable: true,
    expect: ['recipe_id'],
  });
  return res.data;
}

export async function deleteRecipe(api: Service, ws: string, id: string): Promise<void> {
  await api.client.request({ method: 'DELETE', path: v31.recipe(id), auth: 'bearer', workspaceId: ws });
}

/** 202: the build started, not finished (docs/contract-rules.md, Rules 5). */
export async function buildRecipe(api: Service, ws: string, id: string): Promise<Recipe> {
  const res = await api.client.request<Recipe>({
    method: 'POST',
    path: v31.build(id),
    auth: 'bearer',
    workspaceId: ws,
    expect: ['recipe_id'],
  });
  return res.data;
}

export async function resetupRecipe(api: Service, ws: string, id: string): Promise<Recipe> {
  const res = await api.client.request<Recipe>({
    method: 'POST',
    path: v31.resetup(id),
    auth: 'bearer',
    workspaceId: ws,
    expect: ['recipe_id'],
  });
  return res.data;
}

export function checkExtractions(api: Service, ws: string, id: string): Promise<ExtractionCheck> {
  return api.client.get<ExtractionCheck>(v31.extractions(id), 'bearer', ws, ['all_tables_exist', 'tables']);
}
