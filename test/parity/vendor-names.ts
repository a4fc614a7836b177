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

/** An extract (its reads). */
export const EXTRACT = {
  /** Whether it is paused: the contract says extractions get paused, not how a read shows it. */
  paused: 'is_paused',
} as const;

/** A data table's field in its detail. */
export const DATA_TABLE = {
  /** Whether a field is delivered: the contract shows `selected_fields` for the update only. */
  fieldSelected: 'selected',
} as const;

/** A load (its reads, § throughout the contract). */
export const LOAD = {
  /** Whether it is paused. */
  paused: 'is_paused',
} as const;
