/**
 * Names the checks rely on that the contract does not show, in one place. Each is taken from
 * the vendor's documentation, not from the contract: a check that fails on one of them may
 * be failing on the name, not on the rule it tests. Everything else the checks send or read is
 * named by the service's contract (its rules: docs/contract-rules.md), or is the `id` every
 * list item has (Paginated list envelope: items are ordered by `id`).
 */

/** A data source (list items of GET /api/v3/datasources, and the `{datasource_name}` of paths). */
export const DATASOURCE = {
  /** The key of its identifier: the contract shows only `category` on data source items. */
  name: 'name',
} as const;

/** A destination (list items of GET /api/v3/destinations, and the `{destination_name}` of paths). */
export const DESTINATION = {
  /** The key of its identifier: the contract shows no field of a destination. */
  name: 'name',
} as const;

/** A destination connection (its request body and its reads). */
export const DESTINATION_CONNECTION = {
  /** Its display name: the contract shows only `connection_params`. */
  title: 'title',
} as const;

/** S3 parameters inside `connection_params` that the contract does not name. */
export const S3 = {
  /** The bucket written to: the contract's list of S3 parameters leaves it out. */
  bucket: 'bucket',
  /** The two AWS keys of `aws_credentials`: the contract says "AWS keys" without their names. */
  accessKeyId: 'aws_access_key_id',
  secretAccessKey: 'aws_secret_access_key',
} as const;

/** A webhook endpoint's create body. */
export const WEBHOOK = {
  /** The receiver address: the contract says "its key name is not shown". */
  url: 'url',
} as const;

/** An external authentication link. */
export const LINK = {
  /** When it was made, for the newest-first order: the contract shows only `status`. */
  createdAt: 'created_at',
} as const;

/** An automated recipe template (v3.1 list items). */
export const RECIPE_TEMPLATE = {
  /** The data sources a template takes: the contract shows origin, categories, build_mode, output_columns. */
  dataSources: 'data_sources',
} as const;

/** An extraction template: the create body and the list items. */
export const EXTRACT_TEMPLATE = {
  /** The parent global template of a create: the contract says "based on a parent global template" only. */
  parentId: 'parent_id',
  /** Its display name: the contract shows `sql_name` and `fields` only. */
  title: 'title',
  /** Whether a template is a global one (a possible parent): not shown. */
  isGlobal: 'is_global',
  /** The fields a wide template is created with: the contract says "field validation" only. */
  fields: 'fields',
} as const;

/** An extract: the bodies of POST /api/v3.1/extracts/, PUT and PATCH, and its reads. */
export const EXTRACT = {
  /** The extraction template of a create: the create body is § in the contract. */
  templateId: 'template_id',
  /** The account of a create: the contract shows `account_embedded_id` in answers, not as a request field. */
  account: 'account_embedded_id',
  /** Its display name: not shown. */
  title: 'title',
  /** How often it runs: not shown (PUT replaces it, so it is sent back as read). */
  schedule: 'schedule',
  /**
   * Its settings, as the validation and migrate-wide bodies spell them (`fields`,
   * `sync_historical_data`, ...): the contract shows them there, not in the extract's create, PUT
   * or PATCH body, nor in its reads.
   */
  settings: 'template_settings',
  /** Whether it is paused: the contract says extractions get paused, not how a read shows it. */
  paused: 'is_paused',
  /** The data table it fills: not shown in an extract's reads. */
  dataTableId: 'data_table_id',
} as const;

/** The body of POST /api/v3/extract-template/{id}/preview/ (§): the validation body's `accounts`. */
export const PREVIEW = {
  /** The accounts to preview the data of: the contract shows this name for validation only. */
  accounts: 'accounts',
} as const;

/** A group of POST /api/v3/datasources/{name}/custom_setting_options/ ("grouped by account"). */
export const CUSTOM_SETTING_OPTIONS = {
  /** The remote account id a group is for: the contract does not show a group's fields. */
  account: 'account_id',
} as const;

/** A data table's field in its detail. */
export const DATA_TABLE = {
  /** Whether a field is delivered: the contract shows `selected_fields` for the update only. */
  fieldSelected: 'selected',
} as const;

/** A load: its create and PUT bodies and its reads (§ throughout the contract). */
export const LOAD = {
  /** Its display name. */
  title: 'title',
  /** The data table it delivers. */
  dataTableId: 'data_table_id',
  /** Where it delivers to. */
  destinationConnectionId: 'destination_connection_id',
  /** How often it runs (PUT replaces it, so it is sent back as read). */
  schedule: 'schedule',
  /** Whether it is paused. */
  paused: 'is_paused',
} as const;
