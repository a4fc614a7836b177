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
