/**
 * The 400s a request well-formed by its schema can still get: it names what does not exist (an id
 * of no workspace, an account of another connection), contradicts what exists (a link already
 * used, fields a template does not have, a page past the last of a v3.1 list), or breaks a rule
 * between values a schema cannot state (a range whose end is before its start, an account listed
 * twice). The sandbox's document names them in each operation's description (src/sandbox/openapi.ts);
 * every other rule on a request's shape is in its schema (src/contract/requests.ts). Keyed by the
 * operation's id in the registry (src/contract/operations.ts), so that a misspelt id fails the typecheck.
 *
 * `code` is the refusal's code, shown by the v3.1 envelope; `message` matches the text naming it:
 * the envelope's `message`, or in a `{detail}` answer the detail or a field's `field: message`.
 */

import { isOperationId, type Operation, type OperationId } from './operations.js';

export interface StateRule {
  /** when the request is refused, as the document says it */
  says: string;
  code: string;
  message: RegExp;
}

const rule = (says: string, code: string, message: RegExp): StateRule => ({ says, code, message });
const field = (says: string, message: RegExp): StateRule => rule(says, 'validation_error', message);

const PAGE_PAST_END = rule(
  'a `page` past the last page of the list',
  'invalid_query_parameter',
  /^That page contains no results\./,
);
const UNKNOWN_DATA_SOURCE = rule(
  'the data source is none of the agency’s (`GET /api/v3/datasources`)',
  'bad_request',
  /^Unknown data source /,
);
const WORKSPACE_NOT_FOUND = rule(
  '`workspace_id` names no workspace of the agency',
  'bad_request',
  /^workspace_id: Workspace not found in this agency\./,
);
const TEMPLATE_SETTINGS = field(
  '`template_settings` names fields or dynamic fields the template or the connection does not have, asks a wide report without a dimension or a metric, or starts its history after today',
  /^template_settings\.(fields: (unknown fields for template|a wide report needs)|dynamic_fields: (dynamic fields can be selected only|not in the connection's dynamic schema)|sync_historical_data: must not be in the future)/,
);
const CONNECTION_PARAMS = field(
  '`connection_params` break the rules of the destination: a parameter it does not take, or one it requires, refuses or reads in its own form',
  /^connection_params(\..*)?: /,
);
const NO_CONNECTIONS = rule(
  'the destination takes no connections',
  'bad_request',
  /^Destination "[^"]*" takes no connections here\./,
);
const TABLE_AND_DESTINATION = [
  field('`data_table_id` names no data table of the workspace', /^data_table_id: no data table /),
  field(
    '`destination_connection_id` names no destination connection of the workspace',
    /^destination_connection_id: no destination connection /,
  ),
];

/** The recipe rules both versions share; v3 gives them as 400 `{detail}`, v3.1 in its envelope. */
const RECIPE_CONFIGURATION = [
  rule(
    'a data source the template does not allow',
    'data_source_not_allowed',
    /^Data source\(s\) not allowed by the template/,
  ),
  rule(
    "a connection's data source is not among `data_sources`",
    'connection_data_source_not_selected',
    /^A connection's data source is not among data_sources\./,
  ),
  rule('the same connection listed twice', 'duplicate_connection', /^The same connection is listed twice\./),
  rule(
    'a new data source without a connection',
    'data_source_without_connection',
    /^New data source\(s\) without a connection/,
  ),
  rule(
    'accounts unknown, inactive, or of another connection or workspace',
    'account_unavailable',
    /^Some accounts are unknown, inactive, or belong to another connection or workspace\./,
  ),
  field(
    'an account listed twice in a connection',
    /^connections\[\d+\]\.accounts\[\d+\]\.id: Account .* is listed twice\./,
  ),
];
const TEMPLATE_NOT_FOUND = rule('`template_id` names no template of the agency', 'template_not_found', /^No template /);

/** v3 answers these contradictions of state with 400 where v3.1 answers 409. */
const V3_CONFLICTS = {
  exists: rule(
    'the workspace already has a recipe of the template',
    'recipe_already_exists',
    /^The workspace already has a recipe from template/,
  ),
  viewName: rule(
    'another recipe holds the output table name',
    'view_name_taken',
    /^Another recipe holds the output table name/,
  ),
  notDeployable: rule(
    'the template carries no deployable configuration',
    'template_not_deployable',
    /^Template \S+ carries no deployable configuration\./,
  ),
  removal: [
    rule('a data source removed', 'data_source_removal_not_allowed', /^Data sources cannot be removed/),
    rule('a connection removed', 'connection_removal_not_allowed', /^Connections cannot be removed/),
    rule('an account removed', 'account_removal_not_allowed', /^Accounts cannot be removed/),
  ],
  notConfigured: rule(
    'the recipe is not configured yet',
    'recipe_not_configured',
    /^The recipe has no data sources or connections yet/,
  ),
  running: rule('a build of the recipe is running', 'build_already_running', /^A build of this recipe is running\./),
  unavailable: rule(
    "the recipe's template can no longer be deployed",
    'recipe_template_unavailable',
    /^The recipe's template can no longer be deployed\./,
  ),
  noDestination: rule(
    'the workspace has no active destination',
    'no_active_destination',
    /^The workspace has no active destination\./,
  ),
  unsupported: rule(
    'the destination cannot host recipes',
    'destination_not_supported',
    /^The destination "[^"]*" cannot host recipes\./,
  ),
};
const V3_BUILD = [
  V3_CONFLICTS.notConfigured,
  V3_CONFLICTS.running,
  V3_CONFLICTS.unavailable,
  V3_CONFLICTS.viewName,
  V3_CONFLICTS.noDestination,
  V3_CONFLICTS.unsupported,
];

const PERMISSION_CATALOG = field(
  'a permission pair that is not in the catalogue (`GET /api/v3/roles/permissions`)',
  /^permissions\[\d+\]\.(layer|permission): ".*" is not a (layer of the permission catalog|permission of layer)/,
);

export const STATE_RULES: { readonly [I in OperationId]?: readonly StateRule[] } = {
  'token.issue': [WORKSPACE_NOT_FOUND],
  'iframe.url': [
    WORKSPACE_NOT_FOUND,
    rule(
      '`name` is none of the agency’s data sources (or destinations, with `type: destination`)',
      'bad_request',
      /^name: unknown /,
    ),
  ],
  'connections.list': [UNKNOWN_DATA_SOURCE],
  'connections.deleteOfDatasource': [UNKNOWN_DATA_SOURCE],
  'links.create': [
    UNKNOWN_DATA_SOURCE,
    field(
      '`requested_by` is not an active agency user who is a member of the workspace or the agency owner',
      /^requested_by: Must be an active agency user/,
    ),
  ],
  'links.revoke': [
    rule('the link was used or has expired', 'bad_request', /^This link has (already been used|expired)/),
  ],
  'accounts.setActive': [
    rule('accounts not of the connection', 'bad_request', /^Accounts not found in connection /),
    rule('an account listed more than once', 'bad_request', /^Accounts listed more than once/),
  ],
  'accounts.list': [PAGE_PAST_END],
  'extractTemplates.create': [
    UNKNOWN_DATA_SOURCE,
    field('`parent_id` names no global template of the data source', /^parent_id: no global /),
    field(
      '`connection_id` names no connection of the data source in the workspace, or is missing for a wide template',
      /^connection_id: (no \S+ connection|required for a wide template)/,
    ),
    field(
      '`fields` the template does not have, none for a wide template, or a wide report without a dimension or a metric',
      /^fields: (unknown fields for template|required for a wide template|a wide report needs)/,
    ),
    field(
      '`dynamic_fields` not in the connection’s dynamic schema, or with a template that is not wide',
      /^dynamic_fields: (not in the connection's dynamic schema|dynamic fields can be selected only)/,
    ),
  ],
  'extractTemplates.preview': [
    field('`accounts` not of the template’s data source in the workspace', /^accounts: no such /),
    TEMPLATE_SETTINGS,
  ],
  'extractTemplates.validate': [
    field('`accounts` not of the template’s data source in the workspace', /^accounts: no such /),
    TEMPLATE_SETTINGS,
  ],
  'extractTemplates.customSettingOptions': [
    UNKNOWN_DATA_SOURCE,
    field(
      '`connection_id` names no connection of the data source in the workspace',
      /^connection_id: no \S+ connection /,
    ),
    field('`account_ids` not of the connection', /^account_ids: not accounts of connection /),
  ],
  'extracts.create': [
    field('`template_id` names no extract template', /^template_id: no extract template /),
    field(
      '`data_table_id` names no data table of the workspace, or one that holds another template',
      /^data_table_id: (no data table|data table \d+ holds template)/,
    ),
    field('`account_embedded_id` names no account of the workspace', /^account_embedded_id: /),
    TEMPLATE_SETTINGS,
  ],
  'extracts.replace': [TEMPLATE_SETTINGS],
  'extracts.update': [TEMPLATE_SETTINGS],
  'extracts.migrateWide': [
    field(
      '`migrated_from_extraction_id` names no extract of the workspace, or one already wide or without an account',
      /^migrated_from_extraction_id: (no extract|extract \d+ already uses a wide template|extract \d+ has no account)/,
    ),
    field('`template_id` names no wide template of the data source', /^template_id: no wide /),
    TEMPLATE_SETTINGS,
  ],
  'destinationConnections.create': [NO_CONNECTIONS, CONNECTION_PARAMS],
  'destinationConnections.merge': [NO_CONNECTIONS, CONNECTION_PARAMS],
  'destinationConnections.update': [CONNECTION_PARAMS],
  'tables.setFields': [
    field('a dimension deselected, or a field the table’s template does not have', /^selected_fields: /),
  ],
  'loads.create': TABLE_AND_DESTINATION,
  'loads.replace': TABLE_AND_DESTINATION,
  'loads.run': [
    field('`date_to` before `date_from`', /^date_to: must not be before date_from/),
    field('`date_from` after today, without `date_to`', /^date_from: must not be after today/),
  ],
  'recipeTemplates.list': [PAGE_PAST_END],
  'recipes.list': [PAGE_PAST_END],
  'recipes.create': [TEMPLATE_NOT_FOUND],
  'recipes.configure': RECIPE_CONFIGURATION,
  'v3.recipes.create': [TEMPLATE_NOT_FOUND, V3_CONFLICTS.exists, V3_CONFLICTS.viewName, V3_CONFLICTS.notDeployable],
  'v3.recipes.configure': [...RECIPE_CONFIGURATION, ...V3_CONFLICTS.removal, V3_CONFLICTS.running],
  'v3.recipes.build': V3_BUILD,
  'v3.recipes.resetup': V3_BUILD,
  'webhooks.verify': [
    rule(
      'the receiver did not answer the challenge (unreachable, or not 200 with the challenge as its body)',
      'bad_request',
      /^Verification failed: /,
    ),
  ],
  'roles.create': [PERMISSION_CATALOG],
  'roles.update': [PERMISSION_CATALOG],
};

/** The state rules of an operation of the registry; none for an operation that has none. */
export function stateRulesOf(op: Operation): readonly StateRule[] {
  return (isOperationId(op.id) && STATE_RULES[op.id]) || [];
}
