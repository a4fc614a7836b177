import type { FromSchema } from 'json-schema-to-ts';
import type { LosslessNumber } from '../util/json.js';

/**
 * The answers whose shape the contract shows, as JSON Schema (draft 2020-12), by their name in
 * the OpenAPI document. Fields the contract does not name may be present: a reader tolerates
 * them.
 */
/**
 * A count of things (accounts, users, templates): int32, as every integer of the document that
 * is no id carries its width.
 */
const count = { type: 'integer', format: 'int32' } as const;
const text = { type: 'string' } as const;
const flag = { type: 'boolean' } as const;
const textOrNull = { type: ['string', 'null'] } as const;
/** An id: lists are ordered by it, paths name a resource by it. int64: recipe ids pass 2^53. */
const id = { type: 'integer', format: 'int64', minimum: 1 } as const;
/** An id or null (a recipe's data table before its first build). */
const idOrNull = { type: ['integer', 'null'], format: 'int64', minimum: 1 } as const;
/** An object whose fields the contract does not show. */
const anyObject = { type: 'object' } as const;
/** A page's link: a full URL, or null at either end (a mock's example is the end). */
const pageLink = { type: ['string', 'null'], format: 'uri', examples: [null] } as const;

/** A field of a template, an extract or a data table. */
const field = {
  type: 'object',
  description: 'A field: format is a rendering hint (metrics default to float when none is declared).',
  properties: {
    name: text,
    format: {
      enum: ['string', 'float', 'integer', 'iso_8601_date', 'currency', 'percent', 'duration', 'url', 'image_url'],
    },
    user_type: text,
    is_dynamic: flag,
  },
  required: ['name'],
} as const;

/** The build error object; inside a source entry its data_source is the entry's. */
const buildError = {
  type: 'object',
  properties: {
    code: text,
    message: text,
    stage: { enum: ['extraction', 'transformation_build', 'final_build', null] },
    data_source: textOrNull,
    occurred_at: textOrNull,
    details: { type: 'object' },
  },
  required: ['code', 'message', 'stage', 'data_source', 'occurred_at', 'details'],
} as const;

/** A v3.1 recipe's entry per data source; `status` and `reason` are open sets. */
const sourceEntry = {
  type: 'object',
  properties: {
    data_source: text,
    status: text,
    not_delivered_count: count,
    not_delivered: {
      type: 'array',
      maxItems: 100,
      items: {
        type: 'object',
        // the account's remote id: text, or an integer id
        properties: { extraction_id: id, account_id: { type: ['string', 'integer'], format: 'int64' }, reason: text },
        required: ['extraction_id', 'account_id', 'reason'],
      },
    },
    // present when the status is failed (null otherwise, as on the recipe)
    error: { anyOf: [buildError, { type: 'null' }] },
  },
  required: ['data_source', 'status', 'not_delivered_count', 'not_delivered'],
} as const;

const externalAuthLink = {
  type: 'object',
  properties: { id, status: { type: 'string', description: 'not_used, used, expired or revoked_manually' } },
  required: ['id', 'status'],
} as const;

const permissionPair = {
  type: 'object',
  properties: { layer: text, permission: text },
  required: ['layer', 'permission'],
} as const;

export const ANSWER_SCHEMAS = {
  Page: {
    type: 'object',
    description: 'The paginated list envelope: next and previous are full URLs or null.',
    properties: {
      count: { type: 'integer', format: 'int64', minimum: 0 },
      next: pageLink,
      previous: pageLink,
      // Each list's items have their own shape, in the operation's answer.
      results: { type: 'array', items: anyObject },
    },
    required: ['count', 'next', 'previous', 'results'],
  },
  Token: {
    type: 'object',
    properties: { token: { type: 'string', minLength: 1 } },
    required: ['token'],
  },
  Workspace: {
    type: 'object',
    properties: { id, title: text },
    required: ['id', 'title'],
  },
  Connection: {
    type: 'object',
    description: 'A connection as lists show it (other fields are not shown by the contract).',
    properties: { id, accounts_number: count, enabled_for_extraction_accounts_number: count },
    required: ['id', 'accounts_number', 'enabled_for_extraction_accounts_number'],
  },
  AccountV3: {
    type: 'object',
    properties: {
      id,
      account_id: text,
      title: text,
      currency: text,
      connection_id: id,
      datasource_name: text,
      is_active: flag,
      enabled_for_embedded_extraction: flag,
      created_at: text,
      updated_at: text,
      item: { type: 'object' },
    },
    required: ['id', 'account_id', 'title', 'is_active', 'enabled_for_embedded_extraction'],
  },
  AccountV31: {
    type: 'object',
    description: 'The id is the only one a recipe configuration accepts; no second account identifier.',
    properties: {
      id,
      title: text,
      connection_id: id,
      datasource_name: text,
      is_active: flag,
      enabled_for_embedded_extraction: flag,
      currency: textOrNull,
      additional_params: { type: 'object' },
      created_at: text,
      updated_at: text,
      // v3's item object and remote account id are gone in v3.1.
      item: false,
      account_id: false,
    },
    required: ['id', 'title', 'is_active', 'enabled_for_embedded_extraction'],
  },
  RecipeTemplate: {
    type: 'object',
    description: 'A recipe template (v3.1).',
    properties: {
      id,
      title: text,
      origin: text,
      categories: { type: 'array', items: text },
      build_mode: text,
      output_columns: { type: 'array', items: anyObject },
    },
    required: ['id', 'title', 'origin', 'categories', 'build_mode'],
  },
  Recipe: {
    type: 'object',
    description: 'The full recipe (v3.1).',
    properties: {
      recipe_id: id,
      template_id: id,
      datatable_id: idOrNull,
      title: text,
      state: textOrNull,
      error: { anyOf: [buildError, { type: 'null' }] },
      last_build_at: textOrNull,
      degraded: flag,
      not_delivered_reasons: { type: 'array', items: text },
      sources: { type: 'array', items: sourceEntry },
      data_sources: { type: 'array', items: text },
      connections: { type: 'array', items: anyObject },
      sync_from_date: textOrNull,
    },
    required: ['recipe_id', 'title', 'state', 'data_sources', 'connections'],
  },
  RecipeV3Created: {
    type: 'object',
    properties: { recipe_id: id, datatable_id: idOrNull },
    required: ['recipe_id', 'datatable_id'],
  },
  ExtractionCheck: {
    type: 'object',
    description: "A recipe's extraction tables (v3.1).",
    properties: { all_tables_exist: flag, tables: { type: 'array', items: anyObject } },
    required: ['all_tables_exist', 'tables'],
  },
  Role: {
    type: 'object',
    properties: {
      id,
      title: text,
      description: textOrNull,
      permissions: { type: 'array', items: permissionPair },
      user_count: count,
    },
    required: ['id', 'title', 'user_count'],
  },
  WebhookEndpoint: {
    type: 'object',
    description: 'A webhook endpoint; its secret only at creation and rotation.',
    properties: { id, status: text, event_types: { type: 'array', items: text }, secret: false },
    required: ['id', 'status', 'event_types'],
  },
  RecipeTemplateV3: {
    type: 'object',
    description: 'A recipe template (v3): its children nested recursively.',
    properties: {
      level: {},
      // each a template of this same shape
      children: { type: 'array', items: anyObject },
      dependencies_count: count,
      output_columns: { type: ['array', 'null'], items: anyObject },
    },
    required: ['level', 'children', 'dependencies_count', 'output_columns'],
  },
  ExtractionCheckV3: {
    type: 'object',
    description: "A recipe's extraction tables (v3): one entry per table.",
    properties: {
      ready: flag,
      sources: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            data_source: text,
            table: text,
            table_exists: flag,
            extraction_ids: { type: 'array', items: id },
          },
          required: ['data_source', 'table', 'table_exists', 'extraction_ids'],
        },
      },
    },
    required: ['ready', 'sources'],
  },
  ExtractTemplate: {
    type: 'object',
    description: 'An extraction template, in detail.',
    properties: { id, sql_name: text, fields: { type: 'array', items: field } },
    required: ['id', 'sql_name', 'fields'],
  },
  CompactTemplate: {
    type: 'object',
    description: 'An extraction template, in the compact form by id.',
    properties: { id, datasource_name: text, is_wide_template: flag },
    required: ['id', 'datasource_name', 'is_wide_template'],
  },
  Extract: {
    type: 'object',
    properties: {
      id,
      sync_historical_data: textOrNull,
      account_entity_id: id,
      account_embedded_id: idOrNull,
      template: { type: 'object', properties: { is_wide_template: flag }, required: ['is_wide_template'] },
      fields: { type: 'array', items: field },
    },
    required: ['id', 'sync_historical_data', 'account_entity_id', 'account_embedded_id', 'template'],
  },
  DataTable: {
    type: 'object',
    description: 'A data table, in detail: its whole schema, system fields included.',
    properties: { id, sql_name: text, fields: { type: 'array', items: field } },
    required: ['id', 'sql_name', 'fields'],
  },
  Load: {
    type: 'object',
    description: 'A load: the contract shows only that it has an id.',
    properties: { id },
    required: ['id'],
  },
  ExternalAuthLink: externalAuthLink,
  BuildStartedV3: {
    type: 'object',
    description: 'A v3 build that started.',
    properties: { status: text, message: text },
    required: ['status', 'message'],
  },
  ResetupStartedV3: {
    type: 'object',
    description: 'A v3 resetup whose build started.',
    properties: { status: text, recipe_id: id },
    required: ['status', 'recipe_id'],
  },
  ExternalAuthLinks: { type: 'array', items: externalAuthLink },
  PermissionCatalog: {
    type: 'array',
    description: 'The product layers in order, each with its permissions.',
    items: {
      type: 'object',
      properties: {
        title: text,
        description: text,
        permissions: {
          type: 'array',
          items: { type: 'object', properties: { title: text, description: text }, required: ['title', 'description'] },
        },
      },
      required: ['title', 'description', 'permissions'],
    },
  },
  EndpointCreated: {
    type: 'object',
    properties: { id, secret: { type: 'string', minLength: 1 } },
    required: ['id', 'secret'],
  },
} as const satisfies Record<string, Record<string, unknown>>;

/** The shapes of answers the contract shows, by their name in the OpenAPI document. */
export type AnswerShape = keyof typeof ANSWER_SCHEMAS;

/** Parts of those answers the CLI reads on their own (types only: the document has them inline). */
type Parts = { Field: typeof field; BuildError: typeof buildError; SourceEntry: typeof sourceEntry };

type Schemas = typeof ANSWER_SCHEMAS & Parts;

/**
 * An answer of that shape as the CLI reads it: the fields the contract names, typed from the
 * schema above, ids as the lossless parser gives them (a LosslessNumber past 2^53), and
 * any other field as unknown. The CLI's types for these answers are this, with what the vendor's
 * documentation adds where the contract shows nothing.
 */
export type Received<K extends keyof Schemas> = Lossless<FromSchema<Schemas[K]>>;

/**
 * Received<K>, with the fields the contract leaves open (an array or object of anything) read as
 * `Fields` says: what the vendor's documentation and the sandbox show of them.
 */
export type ReceivedWith<K extends keyof Schemas, Fields extends object> = Without<Received<K>, keyof Fields> & Fields;

/** Omit that keeps an index signature's neighbours (the built-in Omit drops every named key). */
export type Without<T, Keys> = { [P in keyof T as P extends Keys ? never : P]: T[P] };

/**
 * Ids (`id`, `*_id`) can pass 2^53, recipe ids do: the parser keeps those as LosslessNumber.
 * Counts do not. A value the contract lists (a format, a stage) may be joined by others: the
 * CLI shows those as they are, so its types leave the list open.
 */
type Lossless<T> = T extends readonly (infer U)[]
  ? Lossless<U>[]
  : T extends object
    ? { [P in keyof T]: P extends 'id' | `${string}_id` ? LosslessId<T[P]> : Lossless<T[P]> }
    : T extends string
      ? Open<T>
      : T;

type LosslessId<T> = T extends number ? number | LosslessNumber : T;

type Open<T extends string> = string extends T ? T : T | (string & {});
