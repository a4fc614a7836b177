import { jsonInteger } from '../util/json.js';
import type { Received, ReceivedWith } from '../contract/answers.js';
import type { recipeConfigurationV31, recipeCreate, Sent } from '../contract/requests.js';
import type { ApiResponse } from './client.js';
import type { ListOptions, Service } from './service.js';

/**
 * Automated recipes. The tool uses the v3.1 operations for accounts and recipes (v3 is
 * deprecated, and only v3.1 account ids are valid in a configuration); `edp api` reaches v3.
 * Every path ends with a slash (the registry's): without it the service answers 301.
 */

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
  return api.list('recipeTemplates.list', { workspaceId: ws, query: { search: query.search } }, opts);
}

export function getTemplate(api: Service, ws: string, id: string): Promise<RecipeTemplate> {
  return api.read('recipeTemplates.get', { params: { id }, workspaceId: ws, expect: ['id'] });
}

export function listRecipes(
  api: Service,
  ws: string,
  query: { state?: string | undefined; templateId?: string | undefined } = {},
  opts?: ListOptions,
): AsyncGenerator<Recipe> {
  return api.list(
    'recipes.list',
    {
      workspaceId: ws,
      query: { state: query.state, template_id: query.templateId },
      pageSize: 100,
    },
    opts,
  );
}

/** A read of a recipe as answered, its trace id included (for support). */
export function readRecipe(api: Service, ws: string, id: string): Promise<ApiResponse<Recipe>> {
  return api.call('recipes.get', { params: { id }, workspaceId: ws, expect: ['recipe_id'] });
}

export function getRecipe(api: Service, ws: string, id: string): Promise<Recipe> {
  return api.read('recipes.get', { params: { id }, workspaceId: ws, expect: ['recipe_id'] });
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
  return api.read('recipes.create', {
    workspaceId: ws,
    body: { template_id: jsonInteger(body.templateId), title: body.title } satisfies Sent<typeof recipeCreate>,
    expect: ['recipe_id'],
  });
}

/** The complete configuration; repeating the same PUT is harmless (docs/contract-rules.md, Retries 3). */
export async function configureRecipe(
  api: Service,
  ws: string,
  id: string,
  config: RecipeConfiguration,
): Promise<Recipe> {
  return api.read('recipes.configure', { params: { id }, workspaceId: ws, body: config, expect: ['recipe_id'] });
}

export async function deleteRecipe(api: Service, ws: string, id: string): Promise<void> {
  await api.call('recipes.delete', { params: { id }, workspaceId: ws });
}

/** 202: the build started, not finished (docs/contract-rules.md, Rules 5). */
export async function buildRecipe(api: Service, ws: string, id: string): Promise<Recipe> {
  return api.read('recipes.build', { params: { id }, workspaceId: ws, expect: ['recipe_id'] });
}

export async function resetupRecipe(api: Service, ws: string, id: string): Promise<Recipe> {
  return api.read('recipes.resetup', { params: { id }, workspaceId: ws, expect: ['recipe_id'] });
}

export function checkExtractions(api: Service, ws: string, id: string): Promise<ExtractionCheck> {
  return api.read('recipes.extractions', { params: { id }, workspaceId: ws, expect: ['all_tables_exist', 'tables'] });
}
