import type { FromSchema } from 'json-schema-to-ts';
import type { LosslessNumber } from '../util/json.js';

/**
 * The answers whose shape the contract shows, as JSON Schema (draft 2020-12), by their name in
 * the OpenAPI document. Fields the contract does not name may be present: a reader tolerates
 * them.
 */
const integer = { type: 'integer' } as const;
const text = { type: 'string' } as const;
const flag = { type: 'boolean' } as const;
const textOrNull = { type: ['string', 'null'] } as const;

export const ANSWER_SCHEMAS = {
  Page: {
    type: 'object',
    description: 'The paginated list envelope: next and previous are full URLs or null.',
    properties: {
      count: { type: 'integer', minimum: 0 },
      next: textOrNull,
      previous: textOrNull,
      results: { type: 'array' },
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
    properties: { id: integer, title: text },
    required: ['id', 'title'],
  },
  Connection: {
    type: 'object',
    description: 'A connection as lists show it (other fields are not shown by the contract).',
    properties: { accounts_number: integer, enabled_for_extraction_accounts_number: integer },
    required: ['accounts_number', 'enabled_for_extraction_accounts_number'],
  },
  AccountV3: {
    type: 'object',
    properties: {
      id: integer,
      account_id: text,
      title: text,
      currency: text,
      connection_id: integer,
      datasource_name: text,
      is_active: flag,
      enabled_for_embedded_extraction: flag,
      item: { type: 'object' },
    },
    required: ['id', 'account_id', 'title', 'is_active', 'enabled_for_embedded_extraction'],
  },
  AccountV31: {
    type: 'object',
    description: 'The id is the only one a recipe configuration accepts; no second account identifier.',
    properties: {
      id: integer,
      title: text,
      connection_id: integer,
      datasource_name: text,
      is_active: flag,
      enabled_for_embedded_extraction: flag,
      currency: textOrNull,
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
      id: integer,
      title: text,
      origin: text,
      categories: { type: 'array' },
      build_mode: text,
      output_columns: { type: 'array' },
    },
    required: ['id', 'title', 'origin', 'categories', 'build_mode'],
  },
  Recipe: {
    type: 'object',
    description: 'The full recipe (v3.1).',
    properties: {
      recipe_id: integer,
      template_id: integer,
      datatable_id: { type: ['integer', 'null'] },
      title: text,
      state: textOrNull,
      error: { type: ['object', 'null'] },
      degraded: flag,
      not_delivered_reasons: { type: 'array' },
      sources: { type: 'array' },
      data_sources: { type: 'array', items: text },
      connections: { type: 'array' },
      sync_from_date: textOrNull,
    },
    required: ['recipe_id', 'title', 'state', 'data_sources', 'connections'],
  },
  RecipeV3Created: {
    type: 'object',
    properties: { recipe_id: integer, datatable_id: { type: ['integer', 'null'] } },
    required: ['recipe_id', 'datatable_id'],
  },
  ExtractionCheck: {
    type: 'object',
    description: "A recipe's extraction tables (v3.1).",
    properties: { all_tables_exist: flag, tables: { type: 'array' } },
    required: ['all_tables_exist', 'tables'],
  },
  Role: {
    type: 'object',
    properties: { id: integer, title: text, description: textOrNull, user_count: integer },
    required: ['id', 'title', 'user_count'],
  },
  WebhookEndpoint: {
    type: 'object',
    description: 'A webhook endpoint; its secret only at creation and rotation.',
    properties: { id: integer, status: text, event_types: { type: 'array', items: text }, secret: false },
    required: ['id', 'status', 'event_types'],
  },
  EndpointCreated: {
    type: 'object',
    properties: { id: integer, secret: { type: 'string', minLength: 1 } },
    required: ['id', 'secret'],
  },
} as const satisfies Record<string, Record<string, unknown>>;

/** The shapes of answers the contract shows, by their name in the OpenAPI document. */
export type AnswerShape = keyof typeof ANSWER_SCHEMAS;

/**
 * An answer of that shape as the CLI reads it: the fields the contract names, typed from the
 * schema above, ids as the lossless parser gives them (a LosslessNumber past 2^53), and
 * any other field as unknown. The CLI's types for these answers are this, with what the vendor's
 * documentation adds where the contract shows nothing.
 */
export type Received<K extends AnswerShape> = Lossless<FromSchema<(typeof ANSWER_SCHEMAS)[K]>>;

/**
 * Received<K>, with the fields the contract leaves open (an array or object of anything) read as
 * `Fields` says: what the vendor's documentation and the sandbox show of them.
 */
export type ReceivedWith<K extends AnswerShape, Fields extends object> = Without<Received<K>, keyof Fields> & Fields;

/** Omit that keeps an index signature's neighbours (the built-in Omit drops every named key). */
export type Without<T, Keys> = { [P in keyof T as P extends Keys ? never : P]: T[P] };

/** Ids (`id`, `*_id`) can pass 2^53, recipe ids do: the parser keeps those as LosslessNumber. Counts do not. */
type Lossless<T> = T extends readonly (infer U)[]
  ? Lossless<U>[]
  : T extends object
    ? { [P in keyof T]: P extends 'id' | `${string}_id` ? LosslessId<T[P]> : Lossless<T[P]> }
    : T;

type LosslessId<T> = T extends number ? number | LosslessNumber : T;
