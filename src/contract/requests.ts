import { z } from 'zod';
import { idOf, type LosslessNumber } from '../util/json.js';
import { isDate } from '../util/validate.js';
import { EVENT_TYPES } from './events.js';
import { SCHEDULES } from './extraction.js';
import { RECIPE_STATES } from './recipes.js';

/**
 * What a client sends, once: the body and query of every operation that reads one, as zod
 * schemas. The sandbox validates requests with them (its `validation_error` names the field
 * and whether it was `required`, `empty` or `invalid`), its OpenAPI document declares them
 * (src/sandbox/openapi.ts), and the CLI's request types are inferred from them (`z.input`, types
 * only: the CLI's read path loads no schema library).
 *
 * Where the contract shows no body ("not shown"), the body is the sandbox's choice, documented with
 * the CLI. Limits the contract does not state (a title of at most 255 characters) are the
 * sandbox's too.
 */

/**
 * What a client sends for a request schema: its input, with integers as the JSON writer carries
 * them (a LosslessNumber past 2^53). The CLI types each body it sends with it.
 */
export type Sent<S extends z.ZodType> = Wire<z.input<S>>;

type Wire<T> = T extends LosslessNumber
  ? T
  : T extends number
    ? number | LosslessNumber
    : T extends readonly (infer U)[]
      ? Wire<U>[]
      : T extends object
        ? { [K in keyof T]: Wire<T[K]> }
        : T;

// ---------------------------------------------------------------- pieces

// Every rule on a request's shape is written so that z.toJSONSchema carries it into the sandbox's
// document (a pattern, an enum, a length): a refinement or a transform would be lost there, and
// the document would accept requests the sandbox refuses. A refinement only backs up a pattern.

/** Not blank: at least one character that is not white space (the characters `trim()` removes). */
const NOT_BLANK = /\S/;

/**
 * An integer id in a body, read without loss: ids can pass 2^53 (recipe ids do), which the
 * JSON parser keeps as a LosslessNumber. The metadata gives its JSON type to the document.
 */
export const integerId = z
  .custom<number | LosslessNumber>((v) => idOf(v) !== undefined, { message: 'A valid integer is required.' })
  .meta({ type: 'integer', format: 'int64' });

/** A positive integer id the service keeps below 2^53 (accounts, templates, tables, …): int64 all the same. */
const intId = z.number().int().positive().meta({ format: 'int64' });

/**
 * A title: not blank once trimmed, at most 255 characters. The pattern says "not blank" to the
 * document (which cannot trim); a blank title stops at `min` (`empty`), so it is reported once.
 */
const title = z.string().trim().min(1, { abort: true }).max(255).regex(NOT_BLANK);

const DATE_MESSAGE = 'Date has wrong format. Use YYYY-MM-DD.';
/**
 * YYYY-MM-DD of a date that exists (leap years included), from the year 0100 (the service's date
 * parser reads the years 0000 to 0099 as the 1900s and refuses them).
 */
const DATE_PATTERN =
  /^(?!00)(?:(?:\d\d[2468][048]|\d\d[13579][26]|\d\d0[48]|[02468][048]00|[13579][26]00)-02-29|\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\d|30)|02-(?:0[1-9]|1\d|2[0-8])))$/;

/** A calendar date as YYYY-MM-DD that exists, with the service's validation message. */
export const isoDate = z
  .string()
  .regex(DATE_PATTERN, { message: DATE_MESSAGE, abort: true })
  .refine(isDate, DATE_MESSAGE)
  .meta({ format: 'date' });

/**
 * An http(s) address a URL parser takes: a scheme; an IPv4 address, or a host name whose last
 * label starts with a letter (one that ends in a number is read as an IPv4 address) and with no
 * internationalized (`xn--`) label; a port up to 65535; then anything without white space.
 */
const HTTP_URL =
  /^[Hh][Tt][Tt][Pp][Ss]?:\/\/(?:(?:(?![Xx][Nn]--)[A-Za-z0-9-]+\.)*(?![Xx][Nn]--)[A-Za-z][A-Za-z0-9-]*\.?|(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d))(?::(?:[0-9]{1,4}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5]))?(?:[/?#]\S*)?$/;

/** An http(s) address. */
const httpUrl = z
  .string()
  .trim()
  .min(1, { abort: true })
  .max(2000)
  .regex(HTTP_URL, { message: 'Enter a valid http(s) URL.', abort: true })
  .refine((v) => {
    try {
      const u = new URL(v);
      return u.protocol === 'http:' || u.protocol === 'https:';
    } catch {
      return false;
    }
  }, 'Enter a valid http(s) URL.');

/** A flag of the iframe URL's query, as the service reads it. */
const queryFlag = z.enum(['true', 'false', 'True', 'False', '1', '0']).optional();

/** `search` of a list. */
export const searchQuery = z.object({ search: z.string().optional() });
/** `search` of a v3.1 list: a blank value is refused (docs/contract-rules.md, Recipe templates, v3.1 list). */
export const searchQueryV31 = z.object({ search: z.string().regex(NOT_BLANK).optional() });

// ---------------------------------------------------------------- tokens, workspaces, iframe

export const tokenRequest = z.object({ workspace_id: integerId });
/** Creating or renaming a workspace. */
export const workspaceTitle = z.object({ title });
export const agencyRecipeEnable = z.object({ recipe_id: integerId });
/** The iframe URL body; the sandbox checks it field by field, in this order, for its messages. */
export const iframeUrlRequest = z.object({
  workspace_id: integerId,
  type: z.enum(['datasource', 'destination']).nullable().optional(),
  name: z.string().min(1).nullable().optional(),
});
export const iframeUrlQuery = z.object({
  show_connectors_list: queryFlag,
  show_datasources: queryFlag,
  show_accounts: queryFlag,
  show_accounts_only_on_auth: queryFlag,
});

/**
 * The iframe page's query: the code its URL carries, the `type` and `name` given when it was
 * asked for, and what an operator may add to it (docs/contract-rules.md, Iframe URL).
 */
export const iframePageQuery = z.object({
  code: z.string(),
  type: z.enum(['datasource', 'destination']).optional(),
  name: z.string().optional(),
  show_account_selection: queryFlag,
  use_default_auth: queryFlag,
  ...iframeUrlQuery.shape,
});

// ---------------------------------------------------------------- links, accounts

export const linksCreate = z.object({
  to_emails: z.array(z.email()).min(1),
  send_email: z.boolean(),
  requested_by: z.email().nullable().optional(),
});

export const accountToggle = z.object({ enabled_for_embedded_extraction: z.boolean() });
/** The bulk toggle of v3: one account, or a list of them. */
export const accountBulkItem = z.object({ id: intId, enabled_for_embedded_extraction: z.boolean() });
export const accountBulkList = z.array(accountBulkItem).min(1);
export const accountBulkToggle = z.union([accountBulkItem, accountBulkList]);

// ---------------------------------------------------------------- extraction

/** `template_settings` (validation, previews, extracts): these keys, each optional. */
export const templateSettings = z.strictObject({
  fields: z.array(z.string().min(1)).min(1).optional(),
  additional_params: z.record(z.string(), z.unknown()).optional(),
  dynamic_fields: z.array(z.string().min(1)).optional(),
  custom_filters: z.array(z.unknown()).optional(),
  sync_historical_data: isoDate.nullable().optional(),
});

export const extractTemplateCreate = z.object({
  title,
  parent_id: intId,
  connection_id: intId.optional(),
  fields: z.array(z.string().min(1)).min(1).optional(),
  dynamic_fields: z.array(z.string().min(1)).optional(),
});
export const templateValidation = z.object({
  accounts: z.array(intId).min(1),
  template_settings: templateSettings.optional(),
});
export const templatePreview = z.object({
  accounts: z.array(intId).min(1).optional(),
  template_settings: templateSettings.optional(),
});
export const customSettingOptions = z.object({
  connection_id: intId,
  account_ids: z.array(z.string().min(1)).min(1),
});

const schedule = z.enum(SCHEDULES);

/** POST /api/v3.1/extracts/ (body not shown). */
export const extractCreate = z.object({
  template_id: intId,
  account_embedded_id: intId,
  data_table_id: intId.nullable().optional(),
  title: title.optional(),
  schedule: schedule.optional(),
  template_settings: templateSettings.optional(),
});
/** An id filter: blank (no filter), an integer, or comma-separated integers, spaces around each allowed. */
const idListFilter = z.string().regex(/^\s*$|^\s*\d+\s*(?:,\s*\d+\s*)*$/);

/** The extract list's filters: each one value or a comma-separated list. */
export const extractListQuery = z.object({
  connection_id: idListFilter.optional(),
  datasource_name: z.string().optional(),
  data_table_id: idListFilter.optional(),
});
/** PUT replaces every writable field; read-only ones in the body are ignored. */
export const extractPut = z.object({
  title,
  schedule,
  template_settings: templateSettings.extend({ fields: z.array(z.string().min(1)).min(1) }),
});
export const extractPatch = z.object({
  title: title.optional(),
  schedule: schedule.optional(),
  template_settings: templateSettings.optional(),
});
export const extractMigrate = z.object({
  migrated_from_extraction_id: intId,
  template_settings: templateSettings,
  template_id: intId.optional(),
});

/** A data table's delivered fields: the whole list (docs/contract-rules.md, Data tables, PUT). */
export const tableFields = z.object({ selected_fields: z.array(z.string()) });

/** Destination connections: `connection_params` are checked per destination by the service. */
const connectionParams = z.record(z.string(), z.unknown());
export const destinationConnectionCreate = z.object({ title, connection_params: connectionParams });
export const destinationConnectionPut = z.object({ title: title.optional(), connection_params: connectionParams });
export const destinationConnectionPatch = z.object({ title: title.optional() });

/** Loads (bodies not shown throughout). */
export const loadCreate = z.object({
  title: title.optional(),
  data_table_id: intId,
  destination_connection_id: intId,
  schedule: schedule.optional(),
});
export const loadPut = z.object({
  title,
  data_table_id: intId,
  destination_connection_id: intId,
  schedule,
});
/** A run for a range instead of the schedule's window (docs/contract-rules.md, Loads, PUT run). */
export const loadRun = z.object({ date_from: isoDate.optional(), date_to: isoDate.optional() });

// ---------------------------------------------------------------- automated recipes

export const recipeCreate = z.object({ template_id: integerId, title });

function recipeConfiguration<A extends z.ZodType<{ id: unknown; account_id?: string | number | undefined }>>(
  account: A,
) {
  return z.object({
    data_sources: z.array(z.string().min(1)),
    connections: z.array(
      z.object({
        connection_id: integerId,
        connection_data_source: z.string().min(1),
        accounts: z.array(account).min(1),
      }),
    ),
    sync_from_date: isoDate.nullable().optional(),
  });
}

/** v3.1 accounts are `{id}`. */
export const recipeConfigurationV31 = recipeConfiguration(z.object({ id: integerId }));
/** v3 accounts are `{id, account_id}`; a bare value is refused as not a dictionary. */
export const recipeConfigurationV3 = recipeConfiguration(
  z
    .custom<Record<string, unknown>>((v) => typeof v === 'object' && v !== null && !Array.isArray(v), {
      message: 'Expected a dictionary of items but got a bare value.',
    })
    .meta({
      type: 'object',
      properties: {
        id: { type: 'integer', format: 'int64' },
        account_id: { type: ['string', 'integer'], format: 'int64' },
      },
      required: ['id'],
    })
    .pipe(z.object({ id: integerId, account_id: z.union([z.string(), z.number()]).optional() })),
);

/** The v3.1 recipe list's filters: a state the contract names, a template id. */
export const recipeListQueryV31 = z.object({
  state: z.enum(RECIPE_STATES).optional(),
  template_id: z.string().regex(/^\d+$/).optional(),
});
/** v3 filters match exactly: an unknown `state` matches nothing. */
export const recipeListQueryV3 = z.object({ state: z.string().optional(), template_id: z.string().optional() });

// ---------------------------------------------------------------- roles, webhooks

const permissionPair = z.object({ layer: z.string(), permission: z.string() });
export const roleWrite = z.object({
  title,
  description: z.string().max(1000).optional(),
  permissions: z.array(permissionPair),
});
export const rolePatch = roleWrite.partial();

/** Subscribed event types: the catalogue's names, each refused by its position otherwise. */
const eventTypes = z
  .array(z.enum(EVENT_TYPES, { error: (issue) => `"${String(issue.input)}" is not a valid event type.` }))
  .min(1);
export const webhookEndpointCreate = z.object({ url: httpUrl, event_types: eventTypes });
/** PATCH changes `event_types` only: the address is what was verified, so any other key is refused. */
export const webhookEndpointPatch = z.strictObject({ event_types: eventTypes });
