/**
 * The service's operations as the contract gives them (docs/contract-rules.md, Endpoints), once:
 * method and path, what each does, the status of success, the statuses it names beyond those every
 * operation can answer, how its list pages, and the shape of its answer where the contract shows
 * one. The sandbox's OpenAPI document is built from this table and the request schemas
 * (src/contract/requests.ts); the test suite checks every answer the sandbox gives against that
 * document.
 *
 * Where the contract shows no status (operations whose bodies it does not show), the status is the
 * one the sandbox answers with, named `chosen`, so that a reader can tell a fact from a choice.
 */

import type { AnswerShape } from './answers.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * How an operation is authenticated (docs/contract-rules.md, Authentication): `basic`, agency
 * credentials (agency operations); `bearer`, a workspace token or a cookie session (workspace
 * operations); `none`, no header (the iframe page, reached with the code in its address).
 */
export type AuthKind = 'basic' | 'bearer' | 'none';

/**
 * How a list pages. `v31`: `page` from 1 and `page_size` 1 to 100 (default 100); a page past the
 * end or a size out of bounds is `400 invalid_query_parameter`. `v3`: `page` from 1, a larger
 * `page_size` is capped (at `maxPageSize`), a page past the end is `404`, or, with `pastEnd: 'empty'`,
 * an empty page (200).
 */
export interface Paging {
  mode: 'v3' | 'v31';
  maxPageSize: number;
  /** what a page past the last answers, where it is not the mode's */
  pastEnd?: 'empty';
}

export interface Operation {
  /**
   * The operation's name, as the client calls it and the sandbox binds its handler:
   * `noun.verb`, with `v3.` before a v3 operation that v3.1 also has (`v3.recipes.build`).
   */
  id: string;
  method: Method;
  /** as the service's router reads it: `/api/v3/loads/:id` */
  path: string;
  auth: AuthKind;
  /**
   * A write the client may send again without harm when its answer is lost or the service was
   * busy (docs/contract-rules.md, Retries 3): a configuration replaced whole, a state set. Reads
   * may always be repeated.
   */
  repeatable?: true;
  /** A POST that changes nothing at the service (token issuance, a list read with a body): repeatable too. */
  changesNothing?: true;
  summary: string;
  /** the status of success */
  success: number;
  /** statuses this operation answers beyond COMMON_STATUSES */
  statuses?: readonly number[];
  paging?: Paging;
  /** the shape of the body of success; `none` for no body, `html` for a page */
  answer?: AnswerShape | 'none' | 'html';
  /** for a list that pages: the shape of each of its results */
  items?: AnswerShape;
  /** the success status is the sandbox's choice: the contract does not show it */
  chosen?: true;
}

/**
 * Statuses any operation can answer (docs/contract-rules.md, Codes any operation can return):
 * validation, authentication, permission, absence, a service fault, a dependency timeout.
 */
export const COMMON_STATUSES: readonly number[] = [400, 401, 403, 404, 500, 503];

/** Statuses any operation that takes a body can answer: a body too large, or not JSON (`bad_request`). */
export const BODY_STATUSES: readonly number[] = [413, 415];

const V31_PAGES: Paging = { mode: 'v31', maxPageSize: 100 };
const V3_PAGES: Paging = { mode: 'v3', maxPageSize: 1000 };

/** v3 recipe operations answer 410 once v3 is switched off (docs/contract-rules.md, Versioning 6). */
const V3_RECIPES = [410] as const;

const ROWS = [
  // Tokens, workspaces, agency recipes, iframe
  {
    id: 'token.issue',
    method: 'POST',
    path: '/api/v3/token',
    auth: 'basic',
    changesNothing: true,
    summary: 'Issue a workspace Bearer token',
    success: 200,
    answer: 'Token',
  },
  {
    id: 'workspaces.list',
    method: 'GET',
    path: '/api/v3/workspaces',
    auth: 'basic',
    items: 'Workspace',
    summary: 'List the workspaces',
    success: 200,
    paging: V3_PAGES,
    answer: 'Page',
  },
  {
    id: 'workspaces.create',
    method: 'POST',
    path: '/api/v3/workspaces',
    auth: 'basic',
    answer: 'Workspace',
    summary: 'Create a workspace',
    success: 201,
  },
  {
    id: 'workspaces.get',
    method: 'GET',
    path: '/api/v3/workspaces/:id',
    auth: 'basic',
    answer: 'Workspace',
    summary: 'Read a workspace',
    success: 200,
  },
  {
    id: 'workspaces.rename',
    method: 'PUT',
    path: '/api/v3/workspaces/:id',
    auth: 'basic',
    repeatable: true,
    answer: 'Workspace',
    summary: 'Rename a workspace',
    success: 200,
  },
  {
    id: 'workspaces.dashboards',
    method: 'GET',
    path: '/api/v3/workspaces/:id/dashboards',
    auth: 'basic',
    summary: 'List the data dashboards of enabled recipes',
    success: 200,
    paging: V3_PAGES,
    answer: 'Page',
  },
  {
    id: 'workspaces.enableRecipe',
    method: 'POST',
    path: '/api/v3/workspaces/:id/recipes',
    auth: 'basic',
    repeatable: true,
    summary: 'Enable an agency recipe in a workspace',
    success: 204,
    answer: 'none',
  },
  {
    id: 'agencyRecipes.list',
    method: 'GET',
    path: '/api/v3/recipes/',
    auth: 'basic',
    summary: 'List the recipes available to the agency',
    success: 200,
    paging: V3_PAGES,
    answer: 'Page',
  },
  {
    id: 'iframe.url',
    method: 'POST',
    path: '/api/v3/get_iframe_url',
    auth: 'basic',
    repeatable: true,
    summary: 'Get a connection iframe URL',
    success: 200,
  },
  {
    id: 'iframe.page',
    method: 'GET',
    path: '/api/v3/iframe/',
    auth: 'none',
    summary: 'Open the connection iframe',
    success: 200,
    chosen: true,
    answer: 'html',
  },

  // Data sources, connections, accounts
  {
    id: 'datasources.list',
    method: 'GET',
    path: '/api/v3/datasources',
    auth: 'bearer',
    summary: 'List the data sources',
    success: 200,
    paging: V3_PAGES,
    answer: 'Page',
  },
  {
    id: 'connections.list',
    method: 'GET',
    path: '/api/v3/datasources/:datasource_name/connections',
    auth: 'bearer',
    items: 'Connection',
    summary: "List a data source's connections",
    success: 200,
    paging: V3_PAGES,
    answer: 'Page',
  },
  {
    id: 'connections.deleteOfDatasource',
    method: 'DELETE',
    path: '/api/v3/datasources/:datasource_name/connections/:id',
    auth: 'bearer',
    summary: "Delete a data source's connection",
    success: 204,
    answer: 'none',
  },
  {
    id: 'connections.delete',
    method: 'DELETE',
    path: '/api/v3/connections/:connection_id',
    auth: 'bearer',
    summary: 'Delete a connection',
    success: 204,
    answer: 'none',
  },
  {
    id: 'links.create',
    method: 'POST',
    path: '/api/v3/datasources/:datasource_name/external-auth-links',
    auth: 'bearer',
    summary: 'Create external authentication links',
    success: 201,
    answer: 'ExternalAuthLinks',
  },
  {
    id: 'links.list',
    method: 'GET',
    path: '/api/v3/datasources/:datasource_name/external-auth-links',
    auth: 'bearer',
    summary: 'List external authentication links, newest first',
    success: 200,
    // The contract names 200 and 401 only: a page past the last is an empty page.
    paging: { ...V3_PAGES, pastEnd: 'empty' },
    answer: 'Page',
    items: 'ExternalAuthLink',
  },
  {
    id: 'links.revoke',
    method: 'POST',
    path: '/api/v3/datasources/:datasource_name/external-auth-links/:id/revoke',
    auth: 'bearer',
    repeatable: true,
    summary: 'Revoke an external authentication link',
    success: 200,
    answer: 'ExternalAuthLink',
  },
  {
    id: 'v3.accounts.list',
    method: 'GET',
    path: '/api/v3/connections/:connection_id/accounts',
    auth: 'bearer',
    items: 'AccountV3',
    summary: "List a connection's accounts (v3)",
    success: 200,
    paging: V3_PAGES,
    answer: 'Page',
  },
  {
    id: 'accounts.setActive',
    method: 'PATCH',
    path: '/api/v3/connections/:connection_id/accounts',
    auth: 'bearer',
    repeatable: true,
    summary: 'Enable or disable accounts for extraction',
    success: 200,
  },
  {
    id: 'accounts.setOneActive',
    method: 'PATCH',
    path: '/api/v3/connections/:connection_id/accounts/:account_id',
    auth: 'bearer',
    repeatable: true,
    summary: 'Enable or disable one account for extraction',
    success: 200,
  },
  {
    id: 'accounts.list',
    method: 'GET',
    path: '/api/v3.1/connections/:connection_id/accounts/',
    auth: 'bearer',
    items: 'AccountV31',
    summary: "List a connection's accounts (v3.1)",
    success: 200,
    paging: V31_PAGES,
    answer: 'Page',
  },

  // Extraction templates, extracts
  {
    id: 'extractTemplates.list',
    method: 'GET',
    path: '/api/v3/datasources/:datasource_name/extract-templates',
    auth: 'bearer',
    summary: "List a data source's extraction templates",
    success: 200,
    paging: V3_PAGES,
    answer: 'Page',
  },
  {
    id: 'extractTemplates.create',
    method: 'POST',
    path: '/api/v3/datasources/:datasource_name/extract-templates',
    auth: 'bearer',
    summary: 'Create an extraction template',
    success: 201,
  },
  {
    id: 'extractTemplates.get',
    method: 'GET',
    path: '/api/v3/datasources/:datasource_name/extract-templates/:id',
    auth: 'bearer',
    summary: 'Read an extraction template',
    success: 200,
    answer: 'ExtractTemplate',
  },
  {
    id: 'extractTemplates.getCompact',
    method: 'GET',
    path: '/api/v3/extract-template/:template_id/',
    auth: 'bearer',
    summary: 'Read a compact extraction template',
    success: 200,
    chosen: true,
    answer: 'CompactTemplate',
  },
  {
    id: 'extractTemplates.preview',
    method: 'POST',
    path: '/api/v3/extract-template/:template_id/preview/',
    auth: 'bearer',
    repeatable: true,
    summary: 'Preview the data of an extraction template',
    success: 200,
    chosen: true,
  },
  {
    id: 'extractTemplates.validate',
    method: 'POST',
    path: '/api/v3/extract-template/:template_id/validation/',
    auth: 'bearer',
    repeatable: true,
    summary: 'Validate an extraction template against accounts',
    success: 200,
    chosen: true,
  },
  {
    id: 'extractTemplates.customSettingOptions',
    method: 'POST',
    path: '/api/v3/datasources/:datasource_name/custom_setting_options/',
    auth: 'bearer',
    changesNothing: true,
    summary: 'List custom setting options by account',
    success: 200,
    paging: V3_PAGES,
    answer: 'Page',
  },
  {
    id: 'extracts.list',
    method: 'GET',
    path: '/api/v3/extracts',
    auth: 'bearer',
    summary: 'List the extracts',
    success: 200,
    paging: V3_PAGES,
    answer: 'Page',
    items: 'Extract',
  },
  {
    id: 'extracts.create',
    method: 'POST',
    path: '/api/v3.1/extracts/',
    auth: 'bearer',
    summary: 'Create an extract',
    success: 201,
    chosen: true,
    answer: 'Extract',
  },
  {
    id: 'extracts.get',
    method: 'GET',
    path: '/api/v3/extracts/:id',
    auth: 'bearer',
    summary: 'Read an extract',
    success: 200,
    chosen: true,
    answer: 'Extract',
  },
  {
    id: 'extracts.replace',
    method: 'PUT',
    path: '/api/v3/extracts/:id',
    auth: 'bearer',
    summary: 'Replace an extract',
    success: 200,
    chosen: true,
    answer: 'Extract',
  },
  {
    id: 'extracts.update',
    method: 'PATCH',
    path: '/api/v3/extracts/:id',
    auth: 'bearer',
    repeatable: true,
    summary: 'Change an extract',
    success: 200,
    chosen: true,
    answer: 'Extract',
  },
  {
    id: 'extracts.run',
    method: 'POST',
    path: '/api/v3/extracts/:id/run',
    auth: 'bearer',
    summary: 'Run an extract now',
    success: 202,
    statuses: [409],
    chosen: true,
    answer: 'Extract',
  },
  {
    id: 'extracts.pause',
    method: 'POST',
    path: '/api/v3/extracts/:extract_id/pause',
    auth: 'bearer',
    repeatable: true,
    summary: 'Pause an extract',
    success: 200,
    chosen: true,
    answer: 'Extract',
  },
  {
    id: 'extracts.unpause',
    method: 'POST',
    path: '/api/v3/extracts/:extract_id/unpause',
    auth: 'bearer',
    repeatable: true,
    summary: 'Unpause an extract',
    success: 200,
    statuses: [409],
    chosen: true,
    answer: 'Extract',
  },
  {
    id: 'extracts.migrateWide',
    method: 'POST',
    path: '/api/v3/extracts/migrate-wide',
    auth: 'bearer',
    summary: 'Migrate an extract to a wide template',
    success: 201,
    statuses: [409],
    chosen: true,
    answer: 'Extract',
  },

  // Destinations, data tables, loads
  {
    id: 'destinations.list',
    method: 'GET',
    path: '/api/v3/destinations',
    auth: 'bearer',
    summary: 'List the destinations',
    success: 200,
    paging: V3_PAGES,
    answer: 'Page',
    chosen: true,
  },
  {
    id: 'destinationConnections.list',
    method: 'GET',
    path: '/api/v3/destinations/:destination_name/connections',
    auth: 'bearer',
    summary: "List a destination's connections",
    success: 200,
    paging: V3_PAGES,
    answer: 'Page',
    chosen: true,
  },
  {
    id: 'destinationConnections.create',
    method: 'POST',
    path: '/api/v3/destinations/:destination_name/connections',
    auth: 'bearer',
    summary: 'Create a destination connection',
    success: 201,
    chosen: true,
  },
  {
    id: 'destinationConnections.get',
    method: 'GET',
    path: '/api/v3/destinations/:destination_name/connections/:id',
    auth: 'bearer',
    summary: 'Read a destination connection',
    success: 200,
    chosen: true,
  },
  {
    id: 'destinationConnections.update',
    method: 'PATCH',
    path: '/api/v3/destinations/:destination_name/connections/:id',
    auth: 'bearer',
    repeatable: true,
    summary: 'Change a destination connection',
    success: 200,
    chosen: true,
  },
  {
    id: 'destinationConnections.merge',
    method: 'PUT',
    path: '/api/v3/destinations/:destination_name/connections/:id',
    auth: 'bearer',
    repeatable: true,
    summary: "Merge a destination connection's parameters and re-check it",
    success: 200,
    chosen: true,
  },
  {
    id: 'destinationConnections.recheck',
    method: 'PUT',
    path: '/api/v3/destinations/:destination_name/connections/:destination_connection_id/recheck',
    auth: 'bearer',
    repeatable: true,
    summary: 'Re-check a destination connection',
    success: 200,
    chosen: true,
  },
  {
    id: 'tables.list',
    method: 'GET',
    path: '/api/v3/data-tables',
    auth: 'bearer',
    summary: 'List the data tables',
    success: 200,
    paging: V3_PAGES,
    answer: 'Page',
    chosen: true,
  },
  {
    id: 'tables.get',
    method: 'GET',
    path: '/api/v3/data-tables/:data_table_id',
    auth: 'bearer',
    summary: 'Read a data table and its schema',
    success: 200,
    chosen: true,
    answer: 'DataTable',
  },
  {
    id: 'tables.setFields',
    method: 'PUT',
    path: '/api/v3/data-tables/:data_table_id',
    auth: 'bearer',
    repeatable: true,
    summary: 'Choose the fields a data table delivers',
    success: 200,
    chosen: true,
  },
  {
    id: 'loads.list',
    method: 'GET',
    path: '/api/v3/loads',
    auth: 'bearer',
    summary: 'List the loads',
    success: 200,
    paging: V3_PAGES,
    answer: 'Page',
    chosen: true,
    items: 'Load',
  },
  {
    id: 'loads.create',
    method: 'POST',
    path: '/api/v3/loads',
    auth: 'bearer',
    answer: 'Load',
    summary: 'Create a load',
    success: 201,
    chosen: true,
  },
  {
    id: 'loads.get',
    method: 'GET',
    path: '/api/v3/loads/:id',
    auth: 'bearer',
    answer: 'Load',
    summary: 'Read a load',
    success: 200,
    chosen: true,
  },
  {
    id: 'loads.replace',
    method: 'PUT',
    path: '/api/v3/loads/:id',
    auth: 'bearer',
    repeatable: true,
    answer: 'Load',
    summary: 'Replace a load',
    success: 200,
    chosen: true,
  },
  {
    id: 'loads.delete',
    method: 'DELETE',
    path: '/api/v3/loads/:id',
    auth: 'bearer',
    summary: 'Delete a load',
    success: 204,
    answer: 'none',
    chosen: true,
  },
  {
    id: 'loads.pause',
    method: 'PUT',
    path: '/api/v3/loads/:id/pause',
    auth: 'bearer',
    repeatable: true,
    answer: 'Load',
    summary: 'Pause a load',
    success: 200,
    chosen: true,
  },
  {
    id: 'loads.unpause',
    method: 'PUT',
    path: '/api/v3/loads/:id/unpause',
    auth: 'bearer',
    repeatable: true,
    answer: 'Load',
    summary: 'Unpause a load',
    success: 200,
    chosen: true,
  },
  {
    id: 'loads.run',
    method: 'PUT',
    path: '/api/v3/loads/:id/run',
    auth: 'bearer',
    summary: 'Run a load now, or for a date range',
    success: 202,
    statuses: [409],
    chosen: true,
    answer: 'Load',
  },

  // Automated recipes, v3.1
  {
    id: 'recipeTemplates.list',
    method: 'GET',
    path: '/api/v3.1/automated-recipe-templates/',
    auth: 'bearer',
    items: 'RecipeTemplate',
    summary: 'List the recipe templates (v3.1)',
    success: 200,
    paging: V31_PAGES,
    answer: 'Page',
  },
  {
    id: 'recipeTemplates.get',
    method: 'GET',
    path: '/api/v3.1/automated-recipe-templates/:id/',
    auth: 'bearer',
    answer: 'RecipeTemplate',
    summary: 'Read a recipe template (v3.1)',
    success: 200,
  },
  {
    id: 'recipes.list',
    method: 'GET',
    path: '/api/v3.1/automated-recipes/',
    auth: 'bearer',
    items: 'Recipe',
    summary: 'List the recipes (v3.1)',
    success: 200,
    paging: V31_PAGES,
    answer: 'Page',
  },
  {
    id: 'recipes.create',
    method: 'POST',
    path: '/api/v3.1/automated-recipes/',
    auth: 'bearer',
    summary: 'Create a recipe (v3.1)',
    success: 201,
    statuses: [409],
    answer: 'Recipe',
  },
  {
    id: 'recipes.get',
    method: 'GET',
    path: '/api/v3.1/automated-recipes/:id/',
    auth: 'bearer',
    summary: 'Read a recipe (v3.1)',
    success: 200,
    answer: 'Recipe',
  },
  {
    id: 'recipes.configure',
    method: 'PUT',
    path: '/api/v3.1/automated-recipes/:id/',
    auth: 'bearer',
    repeatable: true,
    summary: "Set a recipe's configuration, which only grows (v3.1)",
    success: 200,
    statuses: [409],
    answer: 'Recipe',
  },
  {
    id: 'recipes.delete',
    method: 'DELETE',
    path: '/api/v3.1/automated-recipes/:id/',
    auth: 'bearer',
    summary: 'Delete a recipe (v3.1)',
    success: 204,
    statuses: [409],
    answer: 'none',
  },
  {
    id: 'recipes.build',
    method: 'POST',
    path: '/api/v3.1/automated-recipes/:id/build/',
    auth: 'bearer',
    summary: 'Start a build (v3.1)',
    success: 202,
    statuses: [409],
    answer: 'Recipe',
  },
  {
    id: 'recipes.resetup',
    method: 'POST',
    path: '/api/v3.1/automated-recipes/:id/resetup/',
    auth: 'bearer',
    summary: "Recreate a recipe's steps and build (v3.1)",
    success: 202,
    statuses: [409],
    answer: 'Recipe',
  },
  {
    id: 'recipes.extractions',
    method: 'GET',
    path: '/api/v3.1/automated-recipes/:id/extractions/',
    auth: 'bearer',
    answer: 'ExtractionCheck',
    summary: "Check a recipe's extraction tables (v3.1)",
    success: 200,
    statuses: [409, 501],
  },

  // Automated recipes, v3 (deprecated)
  {
    id: 'v3.recipeTemplates.list',
    method: 'GET',
    path: '/api/v3/automated-recipe-templates/',
    auth: 'bearer',
    summary: 'List the recipe templates (v3, deprecated)',
    success: 200,
    statuses: V3_RECIPES,
    paging: { mode: 'v3', maxPageSize: 100 },
    answer: 'Page',
  },
  {
    id: 'v3.recipeTemplates.get',
    method: 'GET',
    path: '/api/v3/automated-recipe-templates/:id/',
    auth: 'bearer',
    summary: 'Read a recipe template (v3, deprecated)',
    success: 200,
    statuses: V3_RECIPES,
    answer: 'RecipeTemplateV3',
  },
  {
    id: 'v3.recipes.list',
    method: 'GET',
    path: '/api/v3/automated-recipes/',
    auth: 'bearer',
    summary: 'List the recipes (v3, deprecated)',
    success: 200,
    statuses: V3_RECIPES,
    paging: { mode: 'v3', maxPageSize: 100 },
    answer: 'Page',
  },
  {
    id: 'v3.recipes.create',
    method: 'POST',
    path: '/api/v3/automated-recipes/',
    auth: 'bearer',
    summary: 'Create a recipe (v3, deprecated)',
    success: 201,
    statuses: V3_RECIPES,
    answer: 'RecipeV3Created',
  },
  {
    id: 'v3.recipes.get',
    method: 'GET',
    path: '/api/v3/automated-recipes/:id/',
    auth: 'bearer',
    summary: 'Read a recipe (v3, deprecated)',
    success: 200,
    statuses: V3_RECIPES,
  },
  {
    id: 'v3.recipes.configure',
    method: 'PUT',
    path: '/api/v3/automated-recipes/:id/',
    auth: 'bearer',
    repeatable: true,
    summary: "Set a recipe's configuration (v3, deprecated)",
    success: 200,
    statuses: V3_RECIPES,
  },
  {
    id: 'v3.recipes.delete',
    method: 'DELETE',
    path: '/api/v3/automated-recipes/:id/',
    auth: 'bearer',
    summary: 'Delete a recipe (v3, deprecated)',
    success: 204,
    statuses: V3_RECIPES,
    answer: 'none',
  },
  {
    id: 'v3.recipes.build',
    method: 'POST',
    path: '/api/v3/automated-recipes/:id/build/',
    auth: 'bearer',
    summary: 'Start a build (v3, deprecated)',
    success: 200,
    statuses: V3_RECIPES,
    answer: 'BuildStartedV3',
  },
  {
    id: 'v3.recipes.resetup',
    method: 'POST',
    path: '/api/v3/automated-recipes/:id/resetup/',
    auth: 'bearer',
    summary: "Recreate a recipe's steps and build (v3, deprecated)",
    success: 200,
    statuses: V3_RECIPES,
    answer: 'ResetupStartedV3',
  },
  {
    id: 'v3.recipes.extractions',
    method: 'GET',
    path: '/api/v3/automated-recipes/:id/extractions/',
    auth: 'bearer',
    summary: "Check a recipe's extraction tables (v3, deprecated)",
    success: 200,
    statuses: [...V3_RECIPES, 501],
    answer: 'ExtractionCheckV3',
  },

  // Webhook endpoints
  {
    id: 'webhooks.list',
    method: 'GET',
    path: '/api/v3/webhook_endpoints/',
    auth: 'bearer',
    items: 'WebhookEndpoint',
    summary: 'List the webhook endpoints',
    success: 200,
    paging: V3_PAGES,
    answer: 'Page',
  },
  {
    id: 'webhooks.create',
    method: 'POST',
    path: '/api/v3/webhook_endpoints/',
    auth: 'bearer',
    summary: 'Create a webhook endpoint (unverified, with its secret)',
    success: 201,
    answer: 'EndpointCreated',
    chosen: true,
  },
  {
    id: 'webhooks.get',
    method: 'GET',
    path: '/api/v3/webhook_endpoints/:id/',
    auth: 'bearer',
    answer: 'WebhookEndpoint',
    summary: 'Read a webhook endpoint',
    success: 200,
  },
  {
    id: 'webhooks.update',
    method: 'PATCH',
    path: '/api/v3/webhook_endpoints/:id/',
    auth: 'bearer',
    repeatable: true,
    answer: 'WebhookEndpoint',
    summary: "Change a webhook endpoint's event types",
    success: 200,
  },
  {
    id: 'webhooks.delete',
    method: 'DELETE',
    path: '/api/v3/webhook_endpoints/:id/',
    auth: 'bearer',
    summary: 'Delete a webhook endpoint',
    success: 204,
    answer: 'none',
    chosen: true,
  },
  {
    id: 'webhooks.verify',
    method: 'POST',
    path: '/api/v3/webhook_endpoints/:id/verify/',
    auth: 'bearer',
    repeatable: true,
    summary: 'Send the verification event to a webhook endpoint',
    success: 200,
    chosen: true,
    answer: 'WebhookEndpoint',
  },
  {
    id: 'webhooks.regenerateSecret',
    method: 'POST',
    path: '/api/v3/webhook_endpoints/:id/regenerate_secret/',
    auth: 'bearer',
    summary: "Replace a webhook endpoint's secret",
    success: 200,
    answer: 'EndpointCreated',
  },
  {
    id: 'webhookEventTypes.list',
    method: 'GET',
    path: '/api/v3/webhook_event_types/',
    auth: 'bearer',
    summary: 'List the subscribable event types',
    success: 200,
    paging: V3_PAGES,
    answer: 'Page',
  },

  // Roles
  {
    id: 'roles.list',
    method: 'GET',
    path: '/api/v3/roles/',
    auth: 'basic',
    items: 'Role',
    summary: 'List the system and custom roles',
    success: 200,
    paging: V3_PAGES,
    answer: 'Page',
  },
  {
    id: 'roles.create',
    method: 'POST',
    path: '/api/v3/roles/',
    auth: 'basic',
    summary: 'Create a custom role',
    success: 201,
    statuses: [409],
  },
  {
    id: 'roles.permissions',
    method: 'GET',
    path: '/api/v3/roles/permissions',
    auth: 'basic',
    summary: 'Read the permission catalog',
    success: 200,
    answer: 'PermissionCatalog',
  },
  {
    id: 'roles.get',
    method: 'GET',
    path: '/api/v3/roles/:role_id',
    auth: 'basic',
    answer: 'Role',
    summary: 'Read a role',
    success: 200,
  },
  {
    id: 'roles.update',
    method: 'PATCH',
    path: '/api/v3/roles/:role_id',
    auth: 'basic',
    repeatable: true,
    answer: 'Role',
    summary: 'Change a custom role',
    success: 200,
    statuses: [409],
  },
  {
    id: 'roles.delete',
    method: 'DELETE',
    path: '/api/v3/roles/:role_id',
    auth: 'basic',
    summary: 'Delete a custom role, reassigning its users',
    success: 200,
  },
  {
    id: 'roles.users',
    method: 'GET',
    path: '/api/v3/roles/:role_id/users',
    auth: 'basic',
    summary: "List a role's users and their workspaces",
    success: 200,
    paging: V3_PAGES,
    answer: 'Page',
  },
] as const satisfies readonly Operation[];

export const OPERATIONS: readonly Operation[] = ROWS;

/** The id of an operation of the registry. */
export type OperationId = (typeof ROWS)[number]['id'];

type OperationRow<I extends OperationId> = Extract<(typeof ROWS)[number], { id: I }>;

/** The router path of an operation: `/api/v3/loads/:id` for `loads.get`. */
export type OperationPath<I extends OperationId> = OperationRow<I>['path'];

/** The names of a router path's parameters: `id` for `/api/v3/loads/:id`. */
export type ParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

/** The values of an operation's path parameters, by name. */
export type PathParams<I extends OperationId> = Record<ParamNames<OperationPath<I>>, string | number | bigint>;

const BY_ID = new Map<string, Operation>(OPERATIONS.map((o) => [o.id, o]));

/** The registry's entry of an operation; an id it does not have is a programming error. */
export function operation(id: OperationId): Operation {
  const op = BY_ID.get(id);
  if (!op) throw new Error(`no operation ${id} in the registry`);
  return op;
}

/** Whether `id` names an operation of the registry. */
export function isOperationId(id: string): id is OperationId {
  return BY_ID.has(id);
}

/**
 * The request path of an operation: each parameter percent-encoded, so that an id or a data
 * source name can never change the shape of the path; the literal parts, trailing slash
 * included, are exactly the contract's. A parameter missing or extra is a programming error.
 */
export function operationPath(id: OperationId, params: Record<string, string | number | bigint> = {}): string {
  const op = operation(id);
  const used = new Set<string>();
  const out = op.path.replace(/:([A-Za-z0-9_]+)/g, (_m, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${id}: missing the path parameter ${name}`);
    used.add(name);
    return encodeURIComponent(String(value));
  });
  const extra = Object.keys(params).filter((k) => !used.has(k));
  if (extra.length > 0) throw new Error(`${id}: no path parameter ${extra.join(', ')}`);
  return out;
}

/** A router path as OpenAPI writes it: `/api/v3/loads/:id` → `/api/v3/loads/{id}`. */
export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

/**
 * The request paths a router path serves, as a regular expression (a parameter is one segment).
 * Made once per path: every sandbox asks for its routes' patterns as it starts, and a pattern
 * without flags keeps no state between uses.
 */
export function pathPattern(path: string): RegExp {
  let pattern = patterns.get(path);
  if (!pattern) {
    const body = path
      .split('/')
      .map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/');
    pattern = new RegExp(`^${body}$`);
    patterns.set(path, pattern);
  }
  return pattern;
}
const patterns = new Map<string, RegExp>();

/** The operation a method and router path name, if any. */
export function operationOf(method: string, path: string): Operation | undefined {
  return OPERATIONS.find((o) => o.method === method && o.path === path);
}
