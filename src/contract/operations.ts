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
  method: Method;
  /** as the service's router reads it: `/api/v3/loads/:id` */
  path: string;
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

export const OPERATIONS: readonly Operation[] = [
  // Tokens, workspaces, agency recipes, iframe
  { method: 'POST', path: '/api/v3/token', summary: 'Issue a workspace Bearer token', success: 200, answer: 'Token' },
  {
    method: 'GET',
    path: '/api/v3/workspaces',
    items: 'Workspace',
    summary: 'List the workspaces',
    success: 200,
    paging: V3_PAGES,
    answer: 'Page',
  },
  { method: 'POST', path: '/api/v3/workspaces', answer: 'Workspace', summary: 'Create a workspace', success: 201 },
  { method: 'GET', path: '/api/v3/workspaces/:id', answer: 'Workspace', summary: 'Read a workspace', success: 200 },
  { method: 'PUT', path: '/api/v3/workspaces/:id', answer: 'Workspace', summary: 'Rename a workspace', success: 200 },
  {
    method: 'GET',
    path: '/api/v3/workspaces/:id/dashboards',
    summary: 'List the data dashboards of enabled recipes',
    success: 200,
    paging: V3_PAGES,
    answer: 'Page',
  },
  {
    method: 'POST',
    path: '/api/v3/workspaces/:id/recipes',
    summary: 'Enable an agency recipe in a workspace',
    success: 204,
    answer: 'none',
  },
  {
    method: 'GET',
    path: '/api/v3/recipes/',
    summary: 'List the recipes available to the agency',
    success: 200,
    paging: V3_PAGES,
    answer: 'Page',
  },
  { method: 'POST', path: '/api/v3/get_iframe_url', summary: 'Get a connection iframe URL', success: 200 },
  {
    method: 'GET',
    path: '/api/v3/iframe/',
    summary: 'Open the connection iframe',
    success: 200,
    chosen: true,
    answer: 'html',
  },

  // Data sources, connections, accounts
  {
    method: 'GET',
    path: '/api/v3/datasources',
    summary: 'List the data sources',
    success: 200,
    paging: V3_PAGES,
    answer: 'Page',
  },
  {
    method: 'GET',
    path: '/api/v3/datasources/:datasource_name/connections',
    items: 'Connection',
    summary: "List a data source's connections",
    success: 200,
    paging: V3_PAGES,
    answer: 'Page',
  },
  {
    method: 'DELETE',
    path: '/api/v3/datasources/:datasource_name/connections/:id',
    summary: "Delete a data source's connection",
    success: 204,
    answer: 'none',
  },
  {
    method: 'DELETE',
    path: '/api/v3/connections/:connection_id',
    summary: 'Delete a connection',
    success: 204,
    answer: 'none',
  },
  {
    method: 'POST',
    path: '/api/v3/datasources/:datasource_name/external-auth-links',
    summary: 'Create external authentication links',
    success: 201,
    answer: 'ExternalAuthLinks',
  },
  {
    method: 'GET',
    path: '/api/v3/datasources/:datasource_name/external-auth-links',
    summary: 'List external authentication links, newest first',
    success: 200,
    // The contract names 200 and 401 only: a page past the last is an empty page.
    paging: { ...V3_PAGES, pastEnd: 'empty' },
    answer: 'Page',
    items: 'ExternalAuthLink',
  },
  {
    method: 'POST',
    path: '/api/v3/datasources/:datasource_name/external-auth-links/:id/revoke',
    summary: 'Revoke an external authentication link',
    success: 200,
    answer: 'ExternalAuthLink',
  },
  {
    method: 'GET',
    path: '/api/v3/connections/:connection_id/accounts',
    items: 'AccountV3',
    summary: "List a connection's accounts (v3)",
    success: 200,
    paging: V3_PAGES,
    answer: 'Page',
  },
  {
    method: 'PATCH',
    path: '/api/v3/connections/:connection_id/accounts',
    summary: 'Enable or disable accounts for extraction',
    success: 200,
  },
  {
    method: 'PATCH',
    path: '/api/v3/connections/:connection_id/accounts/:account_id',
    summary: 'Enable or disable one account for extraction',
    success: 200,
  },
  {
    method: 'GET',
    path: '/api/v3.1/connections/:connection_id/accounts/',
    items: 'AccountV31',
    summary: "List a connection's accounts (v3.1)",
    success: 200,
    paging: V31_PAGES,
    answer: 'Page',
  },

  // Extraction templates, extracts
  {
    method: 'GET',
    path: '/api/v3/datasources/:datasource_name/extract-templates',
    summary: "List a data source's extraction templates",
    success: 200,
    paging: V3_PAGES,
    answer: 'Page',
  },
  {
    method: 'POST',
    path: '/api/v3/datasources/:datasource_name/extract-templates',
    summary: 'Create an extraction template',
    success: 201,
  },
  {
    method: 'GET',
    path: '/api/v3/datasources/:datasource_name/extract-templates/:id',
    summary: 'Read an extraction template',
    success: 200,
    answer: 'ExtractTemplate',
  },
  {
    method: 'GET',
    path: '/api/v3/extract-template/:template_id/',
    summary: 'Read a compact extraction template',
    success: 200,
    chosen: true,
    answer: 'CompactTemplate',
  },
  {
    method: 'POST',
    path: '/api/v3/extract-template/:template_id/preview/',
    summary: 'Preview the data of an extraction template',
    success: 200,
    chosen: true,
  },
  {
    method: 'POST',
    path: '/api/v3/extract-template/:template_id/validation/',
    summary: 'Validate an extraction template against accounts',
    success: 200,
    chosen: true,
  },
  {
    method: 'POST',
    path: '/api/v3/datasources/:datasource_name/custom_setting_options/',
    summary: 'List custom setting options by account',
    success: 200,
    paging: V3_PAGES,
    answer: 'Page',
  },
  {
    method: 'GET',
    path: '/api/v3/extracts',
    summary: 'List the extracts',
    success: 200,
    paging: V3_PAGES,
    answer: 'Page',
    items: 'Extract',
  },
  {
    method: 'POST',
    path: '/api/v3.1/extracts/',
    summary: 'Create an extract',
    success: 201,
    chosen: true,
    answer: 'Extract',
  },
  {
    method: 'GET',
    path: '/api/v3/extracts/:id',
    summary: 'Read an extract',
    success: 200,
    chosen: true,
    answer: 'Extract',
  },
  {
    method: 'PUT',
    path: '/api/v3/extracts/:id',
    summary: 'Replace an extract',
    success: 200,
    chosen: true,
    answer: 'Extract',
  },
  {
    method: 'PATCH',
    path: '/api/v3/extracts/:id',
    summary: 'Change an extract',
    success: 200,
    chosen: true,
    answer: 'Extract',
  },
  {
    method: 'POST',
    path: '/api/v3/extracts/:id/run',
    summary: 'Run an extract now',
    success: 202,
    statuses: [409],
    chosen: true,
    answer: 'Extract',
  },
  {
    method: 'POST',
    path: '/api/v3/extracts/:extract_id/pause',
    summary: 'Pause an extract',
    success: 200,
    chosen: true,
    answer: 'Extract',
  },
  {
    method: 'POST',
    path: '/api/v3/extracts/:extract_id/unpause',
    summary: 'Unpause an extract',
    success: 200,
    statuses: [409],
    chosen: true,
    answer: 'Extract',
  },
  {
    method: 'POST',
    path: '/api/v3/extracts/migrate-wide',
    summary: 'Migrate an extract to a wide template',
    success: 201,
    statuses: [409],
    chosen: true,
    answer: 'Extract',
  },

  // Destinations, data tables, loads
  {
    method: 'GET',
    path: '/api/v3/destinations',
    summary: 'List the destinations',
    success: 200,
    paging: V3_PAGES,
    answer: 'Page',
    chosen: true,
  },
  {
    method: 'GET',
    path: '/api/v3/destinations/:destination_name/connections',
    summary: "List a destination's connections",
    success: 200,
    paging: V3_PAGES,
    answer: 'Page',
    chosen: true,
  },
  {
    method: 'POST',
    path: '/api/v3/destinations/:destination_name/connections',
    summary: 'Create a destination connection',
    success: 201,
    chosen: true,
  },
  {
    method: 'GET',
    path: '/api/v3/destinations/:destination_name/connections/:id',
    summary: 'Read a destination connection',
    success: 200,
    chosen: true,
  },
  {
    method: 'PATCH',
    path: '/api/v3/destinations/:destination_name/connections/:id',
    summary: 'Change a destination connection',
    success: 200,
    chosen: true,
  },
  {
    method: 'PUT',
    path: '/api/v3/destinations/:destination_name/connections/:id',
    summary: "Merge a destination connection's parameters and re-check it",
    success: 200,
    chosen: true,
  },
  {
    method: 'PUT',
    path: '/api/v3/destinations/:destination_name/connections/:destination_connection_id/recheck',
    summary: 'Re-check a destination connection',
    success: 200,
    chosen: true,
  },
  {
    method: 'GET',
    path: '/api/v3/data-tables',
    summary: 'List the data tables',
    success: 200,
    paging: V3_PAGES,
    answer: 'Page',
    chosen: true,
  },
  {
    method: 'GET',
    path: '/api/v3/data-tables/:data_table_id',
    summary: 'Read a data table and its schema',
    success: 200,
    chosen: true,
    answer: 'DataTable',
  },
  {
    method: 'PUT',
    path: '/api/v3/data-tables/:data_table_id',
    summary: 'Choose the fields a data table delivers',
    success: 200,
    chosen: true,
  },
  {
    method: 'GET',
    path: '/api/v3/loads',
    summary: 'List the loads',
    success: 200,
    paging: V3_PAGES,
    answer: 'Page',
    chosen: true,
    items: 'Load',
  },
  { method: 'POST', path: '/api/v3/loads', answer: 'Load', summary: 'Create a load', success: 201, chosen: true },
  { method: 'GET', path: '/api/v3/loads/:id', answer: 'Load', summary: 'Read a load', success: 200, chosen: true },
  { method: 'PUT', path: '/api/v3/loads/:id', answer: 'Load', summary: 'Replace a load', success: 200, chosen: true },
  { method: 'DELETE', path: '/api/v3/loads/:id', summary: 'Delete a load', success: 204, answer: 'none', chosen: true },
  {
    method: 'PUT',
    path: '/api/v3/loads/:id/pause',
    answer: 'Load',
    summary: 'Pause a load',
    success: 200,
    chosen: true,
  },
  {
    method: 'PUT',
    path: '/api/v3/loads/:id/unpause',
    answer: 'Load',
    summary: 'Unpause a load',
    success: 200,
    chosen: true,
  },
  {
    method: 'PUT',
    path: '/api/v3/loads/:id/run',
    summary: 'Run a load now, or for a date range',
    success: 202,
    statuses: [409],
    chosen: true,
    answer: 'Load',
  },

  // Automated recipes, v3.1
  {
    method: 'GET',
    path: '/api/v3.1/automated-recipe-templates/',
    items: 'RecipeTemplate',
    summary: 'List the recipe templates (v3.1)',
    success: 200,
    paging: V31_PAGES,
    answer: 'Page',
  },
  {
    method: 'GET',
    path: '/api/v3.1/automated-recipe-templates/:id/',
    answer: 'RecipeTemplate',
    summary: 'Read a recipe template (v3.1)',
    success: 200,
  },
  {
    method: 'GET',
    path: '/api/v3.1/automated-recipes/',
    items: 'Recipe',
    summary: 'List the recipes (v3.1)',
    success: 200,
    paging: V31_PAGES,
    answer: 'Page',
  },
  {
    method: 'POST',
    path: '/api/v3.1/automated-recipes/',
    summary: 'Create a recipe (v3.1)',
    success: 201,
    statuses: [409],
    answer: 'Recipe',
  },
  {
    method: 'GET',
    path: '/api/v3.1/automated-recipes/:id/',
    summary: 'Read a recipe (v3.1)',
    success: 200,
    answer: 'Recipe',
  },
  {
    method: 'PUT',
    path: '/api/v3.1/automated-recipes/:id/',
    summary: "Set a recipe's configuration, which only grows (v3.1)",
    success: 200,
    statuses: [409],
    answer: 'Recipe',
  },
  {
    method: 'DELETE',
    path: '/api/v3.1/automated-recipes/:id/',
    summary: 'Delete a recipe (v3.1)',
    success: 204,
    statuses: [409],
    answer: 'none',
  },
  {
    method: 'POST',
    path: '/api/v3.1/automated-recipes/:id/build/',
    summary: 'Start a build (v3.1)',
    success: 202,
    statuses: [409],
    answer: 'Recipe',
  },
  {
    method: 'POST',
    path: '/api/v3.1/automated-recipes/:id/resetup/',
    summary: "Recreate a recipe's steps and build (v3.1)",
    success: 202,
    statuses: [409],
    answer: 'Recipe',
  },
  {
    method: 'GET',
    path: '/api/v3.1/automated-recipes/:id/extractions/',
    answer: 'ExtractionCheck',
    summary: "Check a recipe's extraction tables (v3.1)",
    success: 200,
    statuses: [409, 501],
  },

  // Automated recipes, v3 (deprecated)
  {
    method: 'GET',
    path: '/api/v3/automated-recipe-templates/',
    summary: 'List the recipe templates (v3, deprecated)',
    success: 200,
    statuses: V3_RECIPES,
    paging: { mode: 'v3', maxPageSize: 100 },
    answer: 'Page',
  },
  {
    method: 'GET',
    path: '/api/v3/automated-recipe-templates/:id/',
    summary: 'Read a recipe template (v3, deprecated)',
    success: 200,
    statuses: V3_RECIPES,
    answer: 'RecipeTemplateV3',
  },
  {
    method: 'GET',
    path: '/api/v3/automated-recipes/',
    summary: 'List the recipes (v3, deprecated)',
    success: 200,
    statuses: V3_RECIPES,
    paging: { mode: 'v3', maxPageSize: 100 },
    answer: 'Page',
  },
  {
    method: 'POST',
    path: '/api/v3/automated-recipes/',
    summary: 'Create a recipe (v3, deprecated)',
    success: 201,
    statuses: V3_RECIPES,
    answer: 'RecipeV3Created',
  },
  {
    method: 'GET',
    path: '/api/v3/automated-recipes/:id/',
    summary: 'Read a recipe (v3, deprecated)',
    success: 200,
    statuses: V3_RECIPES,
  },
  {
    method: 'PUT',
    path: '/api/v3/automated-recipes/:id/',
    summary: "Set a recipe's configuration (v3, deprecated)",
    success: 200,
    statuses: V3_RECIPES,
  },
  {
    method: 'DELETE',
    path: '/api/v3/automated-recipes/:id/',
    summary: 'Delete a recipe (v3, deprecated)',
    success: 204,
    statuses: V3_RECIPES,
    answer: 'none',
  },
  {
    method: 'POST',
    path: '/api/v3/automated-recipes/:id/build/',
    summary: 'Start a build (v3, deprecated)',
    success: 200,
    statuses: V3_RECIPES,
    answer: 'BuildStartedV3',
  },
  {
    method: 'POST',
    path: '/api/v3/automated-recipes/:id/resetup/',
    summary: "Recreate a recipe's steps and build (v3, deprecated)",
    success: 200,
    statuses: V3_RECIPES,
    answer: 'ResetupStartedV3',
  },
  {
    method: 'GET',
    path: '/api/v3/automated-recipes/:id/extractions/',
    summary: "Check a recipe's extraction tables (v3, deprecated)",
    success: 200,
    statuses: [...V3_RECIPES, 501],
    answer: 'ExtractionCheckV3',
  },

  // Webhook endpoints
  {
    method: 'GET',
    path: '/api/v3/webhook_endpoints/',
    items: 'WebhookEndpoint',
    summary: 'List the webhook endpoints',
    success: 200,
    paging: V3_PAGES,
    answer: 'Page',
  },
  {
    method: 'POST',
    path: '/api/v3/webhook_endpoints/',
    summary: 'Create a webhook endpoint (unverified, with its secret)',
    success: 201,
    answer: 'EndpointCreated',
    chosen: true,
  },
  {
    method: 'GET',
    path: '/api/v3/webhook_endpoints/:id/',
    answer: 'WebhookEndpoint',
    summary: 'Read a webhook endpoint',
    success: 200,
  },
  {
    method: 'PATCH',
    path: '/api/v3/webhook_endpoints/:id/',
    answer: 'WebhookEndpoint',
    summary: "Change a webhook endpoint's event types",
    success: 200,
  },
  {
    method: 'DELETE',
    path: '/api/v3/webhook_endpoints/:id/',
    summary: 'Delete a webhook endpoint',
    success: 204,
    answer: 'none',
    chosen: true,
  },
  {
    method: 'POST',
    path: '/api/v3/webhook_endpoints/:id/verify/',
    summary: 'Send the verification event to a webhook endpoint',
    success: 200,
    chosen: true,
    answer: 'WebhookEndpoint',
  },
  {
    method: 'POST',
    path: '/api/v3/webhook_endpoints/:id/regenerate_secret/',
    summary: "Replace a webhook endpoint's secret",
    success: 200,
    answer: 'EndpointCreated',
  },
  {
    method: 'GET',
    path: '/api/v3/webhook_event_types/',
    summary: 'List the subscribable event types',
    success: 200,
    paging: V3_PAGES,
    answer: 'Page',
  },

  // Roles
  {
    method: 'GET',
    path: '/api/v3/roles/',
    items: 'Role',
    summary: 'List the system and custom roles',
    success: 200,
    paging: V3_PAGES,
    answer: 'Page',
  },
  { method: 'POST', path: '/api/v3/roles/', summary: 'Create a custom role', success: 201, statuses: [409] },
  {
    method: 'GET',
    path: '/api/v3/roles/permissions',
    summary: 'Read the permission catalog',
    success: 200,
    answer: 'PermissionCatalog',
  },
  { method: 'GET', path: '/api/v3/roles/:role_id', answer: 'Role', summary: 'Read a role', success: 200 },
  {
    method: 'PATCH',
    path: '/api/v3/roles/:role_id',
    answer: 'Role',
    summary: 'Change a custom role',
    success: 200,
    statuses: [409],
  },
  {
    method: 'DELETE',
    path: '/api/v3/roles/:role_id',
    summary: 'Delete a custom role, reassigning its users',
    success: 200,
  },
  {
    method: 'GET',
    path: '/api/v3/roles/:role_id/users',
    summary: "List a role's users and their workspaces",
    success: 200,
    paging: V3_PAGES,
    answer: 'Page',
  },
];

/** A router path as OpenAPI writes it: `/api/v3/loads/:id` → `/api/v3/loads/{id}`. */
export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

/** The request paths a router path serves, as a regular expression (a parameter is one segment). */
export function pathPattern(path: string): RegExp {
  const body = path
    .split('/')
    .map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${body}$`);
}

/** The operation a method and router path name, if any. */
export function operationOf(method: string, path: string): Operation | undefined {
  return OPERATIONS.find((o) => o.method === method && o.path === path);
}
