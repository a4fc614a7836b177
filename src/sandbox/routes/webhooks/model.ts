import type { Store } from '../../store.js';

/** The webhook area's collections and knobs, merged into the sandbox's shared types. */

export type WebhookEndpointStatus = 'unverified' | 'active';

export interface WebhookEndpoint {
  id: number;
  workspace_id: number;
  /** receiver address (the contract does not show the key; the vendor's documentation names it `url`) */
  url: string;
  event_types: string[];
  status: WebhookEndpointStatus;
  secret: string;
  created_at: string;
  updated_at: string;
}

/** One delivery attempt, as the sandbox's deliveries log records it. */
export interface WebhookDeliveryAttempt {
  id: number;
  endpoint_id: number;
  event_id: string;
  event_type: string;
  idempotency_key: string;
  /** 1 for the first try, then one more per retry */
  attempt: number;
  url: string;
  /** the receiver's HTTP status, null when no answer arrived */
  status_code: number | null;
  error: string | null;
  /** delivered: 2xx; failed: anything else; abandoned: the endpoint stopped being an active subscriber */
  outcome: 'delivered' | 'failed' | 'abandoned';
  /** another attempt is scheduled */
  will_retry: boolean;
  /** seconds until the next attempt, null when none is scheduled */
  retry_in_s: number | null;
  attempted_at: string;
  /** the X-Service-Signature sent (absent when no request was sent) */
  signature?: string;
}

// Optional in the type so that the shared `emptyState()` stays complete; read them through the accessors below.
declare module '../../types.js' {
  interface State {
    webhook_endpoints?: WebhookEndpoint[];
    webhook_deliveries?: WebhookDeliveryAttempt[];
  }
}

declare module '../../options.js' {
  interface SandboxOptions {
    /**
     * seconds between a failed attempt and the next (docs/contract-rules.md, Events rule 3: 0, 2, 5, 10); tests
     * shrink them
     */
    webhookRetryDelays?: number[];
    /** fault knob: this many receiver answers are treated as lost, so the delivery is retried */
    webhookLostAnswers?: number;
    /** fraction digits of delivered timestamps: 3 (docs/contract-rules.md, Delivery) or 6 */
    webhookTimestampDigits?: 3 | 6;
  }
}

export function endpointsOf(store: Store): WebhookEndpoint[] {
  return (store.state.webhook_endpoints ??= []);
}

export function deliveriesOf(store: Store): WebhookDeliveryAttempt[] {
  return (store.state.webhook_deliveries ??= []);
}
