import type { SandboxEvent } from '../../types.js';
import { EVENT_TYPES, EVENT_TYPES_BY_SHAPE } from '../../../contract/events.js';

/**
 * The service's event catalogue: the event types by shape (src/contract/events.ts), the silent ones
 * and the keys of each shape (docs/contract-rules.md, Payload shapes; Silent event types).
 */
export { EVENT_TYPES, EVENT_TYPES_BY_SHAPE } from '../../../contract/events.js';

const KNOWN = new Set(EVENT_TYPES);

export function isEventType(type: string): boolean {
  return KNOWN.has(type);
}

export { SILENT_EVENT_TYPES } from '../../../contract/events.js';

/** Extra keys of `data` per shape (docs/contract-rules.md, Payload shapes). */
export const SHAPE_KEYS: Readonly<Record<string, readonly string[]>> = {
  Account: [
    'datasource_account_id',
    'datasource_remote_account_id',
    'datasource_remote_account_name',
    'datasource_connection_id',
    'datasource_connection_title',
    'agency_title',
    'workspace_title',
  ],
  Extraction: ['is_action_log', 'agency_title', 'workspace_title', 'dts_order_params_id', 'order_id'],
  Agency: ['agency_title', 'workspace_title'],
  AgencyInvite: [
    'agency_title',
    'workspace_title',
    'agency_invite_uuid',
    'inviter_user_id',
    'invitee_user_email',
    'invitee_user_type',
    'invitee_user_first_name',
    'invitee_user_last_name',
    'agency_invite_requested_at',
    'agency_invite_accepted_date',
    'agency_invite_workspaces_json',
  ],
  Connection: [
    'agency_title',
    'workspace_title',
    'datasource_connection_id',
    'datasource_name',
    'datasource_connection_title',
  ],
  DestinationConnection: [
    'agency_title',
    'workspace_title',
    'destination_connection_id',
    'destination_connection_title',
    'destination_type',
    'destination_status',
  ],
  DataTable: [
    'agency_title',
    'workspace_title',
    'datatable_id',
    'datatable_name',
    'datatable_title',
    'datasource_name',
    'datatable_sql_name',
  ],
  Load: ['agency_title', 'workspace_title', 'load_destination_title', 'load_id', 'order_id', 'order_ui_link'],
  Recipe: [
    'recipe_event_is_impersonated',
    'recipe_event_actor',
    'recipe_event_view_name',
    'recipe_event_old_view_name',
    'recipe_event_new_view_name',
    'recipe_event_error_message',
    'recipe_event_skip_reason',
    'recipe_event_is_manual_deactivation',
    'recipe_event_description',
    'is_action_log',
  ],
  Transformation: [
    'agency_title',
    'workspace_title',
    'mcdm_recipe_title',
    'transformation_id',
    'order_id',
    'order_ui_link',
    'start_reason',
    'run_id',
  ],
  Workspace: ['agency_title', 'workspace_title'],
  User: ['agency_title', 'workspace_title'],
};

/** The only keys that may be null rather than a string (docs/contract-rules.md, Events rule 4). */
const NULLABLE_KEYS = new Set(['agency_invite_accepted_date']);

/**
 * `YYYY-MM-DD HH:MM:SS.mmm` in UTC, the contract's timestamp shape. With `digits` 6 the
 * fraction has six digits (microseconds), as the vendor's samples show them, so that a
 * receiver can be tested against both; the sandbox's clock counts milliseconds, the last
 * three digits come from `micros`.
 */
export function eventTimestamp(ms: number, digits: 3 | 6 = 3, micros = 0): string {
  const text = new Date(ms).toISOString().replace('T', ' ').replace('Z', '');
  return digits === 6 ? `${text}${String(micros % 1000).padStart(3, '0')}` : text;
}

/** The sub-millisecond digits of an event: fixed per event, so every attempt carries the same. */
export function eventMicros(event: SandboxEvent): number {
  return parseInt(event.id.slice(-3), 16) % 1000;
}

/** `workspace_created` → `WorkspaceCreated`. */
function eventClass(type: string): string {
  return type
    .split('_')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');
}

export interface PayloadContext {
  agencyTitle: string;
  workspaceTitle: string | undefined;
  /** fraction digits of timestamps: 3 (the contract's shape, default) or 6 */
  timestampDigits?: 3 | 6;
}

/**
 * The delivered `data`: exactly the keys of the event's shape, every one present ("a
 * documented-empty field is empty in production, not omitted"), every value a string (null only
 * where the contract allows it). Agency and workspace titles the emitter left out are filled
 * from the state. The use case behind an event is not known to the sandbox: it stays empty.
 */
export function payloadData(event: SandboxEvent, ctx: PayloadContext): Record<string, string | null> {
  const keys = SHAPE_KEYS[event.shape];
  const data: Record<string, string | null> = {};
  // Every shape but Recipe carries the shared product_domain_event_* keys.
  if (event.shape !== 'Recipe') {
    data.product_domain_event_inserted_at = eventTimestamp(event.occurred_at, ctx.timestampDigits, eventMicros(event));
    data.product_domain_event_aggregate_class = event.shape;
    data.product_domain_event_class = eventClass(event.type);
    data.product_domain_event_usecase = '';
    data.product_domain_event = event.type;
  }
  const fallback: Record<string, string | undefined> = {
    agency_title: ctx.agencyTitle,
    workspace_title: ctx.workspaceTitle,
  };
  for (const key of keys ?? Object.keys(event.data)) {
    const value = event.data[key];
    if (value === null && NULLABLE_KEYS.has(key)) data[key] = null;
    else if (value !== undefined && value !== null) data[key] = String(value);
    else data[key] = NULLABLE_KEYS.has(key) ? null : (fallback[key] ?? '');
  }
  return data;
}

/** The shape (aggregate class) of an event type; undefined for a name that is not one. */
export function shapeOfEventType(type: string): string | undefined {
  return Object.entries(EVENT_TYPES_BY_SHAPE).find(([, types]) => types.includes(type))?.[0];
}

/** Where a triggered event's sample values come from: its workspace and the time it occurs. */
export interface SampleContext {
  workspaceId: number;
  /** the event's time, in the contract's timestamp shape */
  timestamp: string;
}

/**
 * Sample values of the keys that have no fact to come from (POST /_sandbox/events): every one a
 * string, as the contract's Events rule 4 says, ids in digits. The agency and workspace titles
 * are left to `payloadData`, which fills them from the state.
 */
function sampleValue(key: string, type: string, ctx: SampleContext): string | null | undefined {
  switch (key) {
    case 'agency_title':
    case 'workspace_title':
      return undefined;
    case 'is_action_log':
    case 'recipe_event_is_impersonated':
    case 'recipe_event_is_manual_deactivation':
      return 'false';
    case 'agency_invite_uuid':
      return '00000000-0000-4000-8000-000000000001';
    case 'invitee_user_email':
      return 'invitee@example.com';
    case 'invitee_user_type':
      return 'user';
    case 'invitee_user_first_name':
      return 'Sam';
    case 'invitee_user_last_name':
      return 'Sample';
    case 'agency_invite_requested_at':
      return ctx.timestamp;
    // null until accepted (the contract's AgencyInvite shape)
    case 'agency_invite_accepted_date':
      return type === 'invite_accepted' ? ctx.timestamp : null;
    case 'agency_invite_workspaces_json':
      return JSON.stringify([ctx.workspaceId]);
    case 'datasource_name':
      return 'google_ads';
    case 'datatable_name':
    case 'datatable_sql_name':
      return 'sample_table';
    case 'destination_type':
      return 's3';
    case 'destination_status':
      return 'active';
    case 'order_ui_link':
      return 'https://app.example.com/orders/6001';
    // transformation_completed never carries a recipe title (the contract's Events rule 4)
    case 'mcdm_recipe_title':
      return type === 'transformation_completed' ? '' : 'Sample recipe';
    case 'start_reason':
      return 'schedule';
    case 'recipe_event_actor':
      return 'agency@sandbox.local';
    case 'recipe_event_view_name':
    case 'recipe_event_new_view_name':
      return 'sample_view';
    case 'recipe_event_old_view_name':
      return type === 'recipe_view_name_updated' ? 'sample_view_old' : '';
    case 'recipe_event_error_message':
      return type.endsWith('_failed') ? 'Sample failure.' : '';
    case 'recipe_event_skip_reason':
      return type.endsWith('_skipped') ? 'Sample reason.' : '';
    case 'recipe_event_description':
      return '';
    default:
      if (key.endsWith('_id')) return String(1000 + ((key.length * 37) % 900));
      if (key.endsWith('_title') || key.endsWith('_name'))
        return `Sample ${key.replace(/_(title|name)$/, '').replace(/_/g, ' ')}`;
      return '';
  }
}

/** A sample of an event type's own `data` values, by its shape's keys; undefined for a name that is not a type. */
export function sampleEventData(type: string, ctx: SampleContext): Record<string, string | null> | undefined {
  const shape = shapeOfEventType(type);
  if (shape === undefined) return undefined;
  const data: Record<string, string | null> = {};
  for (const key of SHAPE_KEYS[shape] ?? []) {
    const value = sampleValue(key, type, ctx);
    if (value !== undefined) data[key] = value;
  }
  return data;
}
