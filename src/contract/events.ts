/** Webhook retry delays, in seconds (docs/contract-rules.md, Events rule 3 and Limits). */
export const WEBHOOK_RETRY_DELAYS_S: readonly number[] = [0, 2, 5, 10];

/** The upper bound of the 95th-percentile delivery latency (docs/contract-rules.md, Events rule 2). */
export const DELIVERY_LATENCY_P95_MS = 26 * 60_000;

/**
 * Valid subscriptions that produced no events in a 30-day production sample (docs/contract-rules.md,
 * Silent event types): a flow must not wait on them, and the sandbox never emits them.
 */
export const SILENT_EVENT_TYPES: ReadonlySet<string> = new Set([
  'account_created',
  'account_disabled',
  'account_disabled_for_copied_connection',
  'account_enabled_for_copied_connection',
  'agency_migrated_to_workspace_separated_schemas',
  'connection_accounts_update_started',
  'connection_accounts_update_success',
  'connection_created',
  'connection_reconnected',
  'destination_connection_deleted',
  'gbq_by_service_created',
  'gbq_by_service_for_sandbox_created',
  'custom_filters_changed',
  'agency_invite_created',
  'invite_deleted',
  'user_deactivated',
  'user_invited_to_workspaces',
]);

/**
 * The service's 90 event types by shape (docs/contract-rules.md, Payload shapes): the aggregate
 * class (shape) of an event sets the keys of its `data` (src/sandbox/routes/webhooks/catalog.ts).
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
