import type { SandboxEvent } from '../../types.js';

/**
 * The service's event catalogue: the 90 event types by shape, the silent ones and the keys of
 * each shape (docs/contract-rules.md, Payload shapes; Silent event types). The aggregate class
 * (shape) of an event sets the keys of its `data`.
 */
export const EVENT_TYPES_BY_SHAPE: Readonly<Record<string, readonly string[]>> = {
  Account: [
    'account_created',
    'account_disabled',
    'account_disabled_for_copied_connection',
    'account_enabled',
    'account_enabled_for_copied_connection',
    'account_item_changed',
    'account_name_changed',
    'enabled_for_embedded_extraction_changed',
  ],
  Extraction: [
    'additional_params_changed',
    'custom_filters_changed',
    'extraction_account_changed',
    'extraction_completed',
    'extraction_created',
    'extraction_marked_as_deleting',
    'extraction_paused',
    'extraction_schedules_changed',
    'extraction_template_changed',
    'extraction_unpaused',
    'fields_changed',
    'historical_download_started',
    'regular_download_started',
    'sync_historical_data_changed',
  ],
  Agency: [
    'agency_created',
    'agency_is_test_changed',
    'agency_migrated_to_workspace_separated_schemas',
    'agency_offboarded',
    'agency_toggle',
  ],
  AgencyInvite: ['agency_invite_created', 'invite_accepted', 'invite_deleted', 'invite_sent'],
  Connection: [
    'connection_accounts_update_error',
    'connection_accounts_update_fail',
    'connection_accounts_update_started',
    'connection_accounts_update_success',
    'connection_created',
    'connection_deleted',
    'connection_invalidated',
    'connection_privacy_updated',
    'connection_reconnected',
  ],
  DestinationConnection: [
    'create_load_changed',
    'destination_connection_changed',
    'destination_connection_check_run',
    'destination_connection_created',
    'destination_connection_deleted',
    'error_text_changed',
    'gbq_by_service_created',
    'gbq_by_service_for_sandbox_created',
    'secret_key_changed',
    'status_changed',
    'title_changed',
  ],
  DataTable: [
    'data_table_created',
    'data_table_marked_as_deleting',
    'extraction_added',
    'table_auto_add_new_fields_changed',
    'table_auto_extract_new_accounts_changed',
    'table_extract_template_changed',
    'table_freshness_changed',
    'table_meta_set',
    'table_sql_available_at_changed',
    'table_title_changed',
  ],
  Load: [
    'error_changed',
    'execution_policy_changed',
    'load_completed',
    'load_created',
    'load_started',
    'order_paused',
    'order_started',
    'run_policy_changed',
    'schedules_changed',
  ],
  Recipe: [
    'recipe_activated',
    'recipe_backward_compatibility_validated',
    'recipe_backward_compatibility_validation_failed',
    'recipe_backward_compatibility_validation_skipped',
    'recipe_columns_validated',
    'recipe_deactivated',
    'recipe_promoted',
    'recipe_validate_complexity_failed',
    'recipe_validate_complexity_success',
    'recipe_view_name_updated',
  ],
  Transformation: ['transformation_completed', 'transformation_created', 'transformation_started'],
  Workspace: [
    'user_added_to_workspace',
    'user_removed_from_workspace',
    'user_workspace_role_changed',
    'workspace_connector_changed',
    'workspace_created',
  ],
  User: ['user_deactivated', 'user_invited_to_workspaces'],
};

/** Every subscribable type, sorted by name (the order of `GET /api/v3/webhook_event_types/`). */
export const EVENT_TYPES: readonly string[] = Object.values(EVENT_TYPES_BY_SHAPE).flat().sort();
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
