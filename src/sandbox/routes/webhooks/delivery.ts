import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { WEBHOOK_RETRY_DELAYS_S } from '../../../contract/events.js';
import { Agent, request } from 'undici';
import type { ClockTimer } from '../../clock.js';
import type { Store } from '../../store.js';
import type { SandboxEvent } from '../../types.js';
import { eventMicros, eventTimestamp, isEventType, payloadData, SILENT_EVENT_TYPES } from './catalog.js';
import { deliveriesOf, endpointsOf, type WebhookDeliveryAttempt, type WebhookEndpoint } from './model.js';

/** Webhook retry delays (docs/contract-rules.md, Limits). */
export const DEFAULT_RETRY_DELAYS_S: readonly number[] = WEBHOOK_RETRY_DELAYS_S;
/** Receivers should answer within a few seconds (docs/contract-rules.md, Events rule 3). */
const RECEIVER_TIMEOUT_MS = 5000;
const DELIVERY_LOG_LIMIT = 2000;

interface DeliveryJob {
  endpointId: number;
  event: SandboxEvent;
  /** the exact bytes signed and sent on every attempt */
  body: string;
  idempotencyKey: string;
}

export type VerifyResult = { ok: true } | { ok: false; reason: string };

/**
 * Endpoints are workspace-scoped and receive their workspace's events. Events of agency-level
 * operations have no workspace to be scoped to: the Agency and AgencyInvite shapes, anything
 * emitted without a workspace, and `workspace_created` (done with agency credentials, before
 * the new workspace can have an endpoint). Those go to subscribed endpoints of every workspace.
 */
export function isAgencyWide(event: SandboxEvent): boolean {
  return (
    event.workspace_id === null ||
    event.shape === 'Agency' ||
    event.shape === 'AgencyInvite' ||
    event.type === 'workspace_created'
  );
}

function describeFailure(err: unknown): string {
  const code = (err as { code?: string }).code;
  if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError'))
    return 'the receiver did not answer in time';
  return code ? `${code}: ${(err as Error).message}` : String((err as Error)?.message ?? err);
}

export function signBody(secret: string, body: string): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

/**
 * Delivers events to the sandbox's webhook endpoints: after --webhook-delay, a signed POST to
 * each active endpoint of the event's workspace subscribed to its type, retried on failure or
 * a non-2xx answer after the contract's delays. One per sandbox; `close` stops it.
 */
export class WebhookDispatcher {
  private readonly timers = new Set<ClockTimer>();
  private readonly agent = new Agent({ keepAliveTimeout: 4000, connections: 16 });
  private readonly closing = new AbortController();
  /** Aborted when the state is replaced (a reset, a restore): a delivery under way belongs to the state it left. */
  private replaced = new AbortController();

  constructor(private readonly store: Store) {
    store.onReplace(() => {
      this.replaced.abort();
      this.replaced = new AbortController();
    });
  }

  private endpoint(id: number): WebhookEndpoint | undefined {
    return endpointsOf(this.store).find((e) => e.id === id);
  }

  handle(event: SandboxEvent): void {
    if (SILENT_EVENT_TYPES.has(event.type) || !isEventType(event.type)) return;
    const agencyWide = isAgencyWide(event);
    const targets = endpointsOf(this.store).filter(
      (e) =>
        (agencyWide || e.workspace_id === event.workspace_id) &&
        e.status === 'active' &&
        e.event_types.includes(event.type),
    );
    if (targets.length === 0) return;
    this.send(event, targets, this.dataOf(event));
  }

  /** The delivered `data` of an event: its shape's keys, filled from the state where the emitter left them out. */
  dataOf(event: SandboxEvent): Record<string, string | null> {
    return payloadData(event, {
      agencyTitle: this.store.state.agency.title,
      workspaceTitle: event.workspace_id === null ? undefined : this.store.workspace(event.workspace_id)?.title,
      timestampDigits: this.store.opts.webhookTimestampDigits ?? 3,
    });
  }

  /**
   * A triggered event (POST /_sandbox/events): sent with `data` as given to every active endpoint
   * of the event's workspace subscribed to its type, silent types included, through the same
   * path as any other (signature, retries, the deliveries log). Returns the endpoints.
   */
  trigger(event: SandboxEvent, data: Record<string, unknown>): WebhookEndpoint[] {
    const targets = endpointsOf(this.store).filter(
      (e) => e.workspace_id === event.workspace_id && e.status === 'active' && e.event_types.includes(event.type),
    );
    this.send(event, targets, data);
    return targets;
  }

  /** The body as sent: `{id, type, timestamp, data}`, the same bytes on every attempt, to each endpoint. */
  eventBody(
    event: SandboxEvent,
    data: Record<string, unknown>,
  ): { id: string; type: string; timestamp: string; data: Record<string, unknown> } {
    const timestamp = eventTimestamp(
      event.occurred_at,
      this.store.opts.webhookTimestampDigits ?? 3,
      eventMicros(event),
    );
    return { id: event.id, type: event.type, timestamp, data };
  }

  private send(event: SandboxEvent, targets: WebhookEndpoint[], data: Record<string, unknown>): void {
    const body = JSON.stringify(this.eventBody(event, data));
    for (const endpoint of targets) {
      this.schedule(
        { endpointId: endpoint.id, event, body, idempotencyKey: randomUUID() },
        1,
        this.store.opts.webhookDelay * 1000,
      );
    }
  }

  private schedule(job: DeliveryJob, attempt: number, delayMs: number): void {
    const timer = this.store.clock.setTimeout(() => {
      this.timers.delete(timer);
      void this.attempt(job, attempt);
    }, delayMs);
    this.timers.add(timer);
  }

  private async attempt(job: DeliveryJob, attempt: number): Promise<void> {
    const endpoint = this.endpoint(job.endpointId);
    const record = (
      fields: Pick<
        WebhookDeliveryAttempt,
        'status_code' | 'error' | 'outcome' | 'will_retry' | 'retry_in_s' | 'signature'
      >,
    ) =>
      this.log({
        id: this.store.nextId('webhook_delivery'),
        endpoint_id: job.endpointId,
        event_id: job.event.id,
        event_type: job.event.type,
        idempotency_key: job.idempotencyKey,
        attempt,
        url: endpoint?.url ?? '',
        attempted_at: this.store.clock.iso(),
        ...fields,
      });
    // Only active endpoints receive events (docs/contract-rules.md, Events rule 1): one deleted,
    // reset to unverified by a secret rotation, or unsubscribed since the event occurred gets no
    // further attempt.
    if (!endpoint || endpoint.status !== 'active' || !endpoint.event_types.includes(job.event.type)) {
      record({
        status_code: null,
        error: 'the endpoint is no longer an active subscriber',
        outcome: 'abandoned',
        will_retry: false,
        retry_in_s: null,
      });
      return;
    }
    let statusCode: number | null = null;
    let error: string | null = null;
    const signature = signBody(endpoint.secret, job.body);
    const replaced = this.replaced.signal;
    try {
      const res = await request(endpoint.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'edp-sandbox-webhooks',
          'x-service-signature': signature,
          'x-service-idempotency-key': job.idempotencyKey,
        },
        body: job.body,
        dispatcher: this.agent,
        signal: AbortSignal.any([AbortSignal.timeout(RECEIVER_TIMEOUT_MS), this.closing.signal, replaced]),
      });
      await res.body.dump();
      statusCode = res.statusCode;
    } catch (err) {
      error = describeFailure(err);
    }
    // Neither logged nor retried: the state it was for is gone.
    if (this.closing.signal.aborted || replaced.aborted) return;
    let delivered = statusCode !== null && statusCode >= 200 && statusCode < 300;
    if (delivered && (this.store.opts.webhookLostAnswers ?? 0) > 0) {
      this.store.opts.webhookLostAnswers! -= 1;
      delivered = false;
      error = 'the answer was lost (sandbox fault knob lost_answers)';
    }
    if (!delivered && statusCode !== null && error === null) error = `the receiver answered ${statusCode}`;
    const delays = this.store.opts.webhookRetryDelays ?? DEFAULT_RETRY_DELAYS_S;
    // Retry delays 0, 2, 5 and 10 s (docs/contract-rules.md, Events rule 3), so a failed first
    // attempt is retried up to four times, the n-th retry n-th delay after the previous failure.
    const willRetry = !delivered && attempt <= delays.length;
    const retryIn = willRetry ? delays[attempt - 1]! : null;
    record({
      status_code: statusCode,
      error,
      outcome: delivered ? 'delivered' : 'failed',
      will_retry: willRetry,
      retry_in_s: retryIn,
      signature,
    });
    if (retryIn !== null) this.schedule(job, attempt + 1, retryIn * 1000);
  }

  private log(entry: WebhookDeliveryAttempt): void {
    const log = deliveriesOf(this.store);
    log.push(entry);
    if (log.length > DELIVERY_LOG_LIMIT) log.splice(0, log.length - DELIVERY_LOG_LIMIT);
    this.store.changed();
  }

  /**
   * A GET to the receiver with a verify token and a challenge; only a 200 whose body is exactly
   * the challenge verifies the endpoint (docs/contract-rules.md, Events rule 6).
   */
  async verify(endpoint: WebhookEndpoint): Promise<VerifyResult> {
    const challenge = randomBytes(16).toString('hex');
    try {
      const res = await request(endpoint.url, {
        method: 'GET',
        headers: {
          'user-agent': 'edp-sandbox-webhooks',
          // As the vendor documents it, the verify token is the endpoint's secret: a receiver
          // can tell the service's GET from anyone else's.
          'x-service-verify-token': endpoint.secret,
          'x-service-challenge': challenge,
        },
        dispatcher: this.agent,
        signal: AbortSignal.any([AbortSignal.timeout(RECEIVER_TIMEOUT_MS), this.closing.signal]),
      });
      const text = await res.body.text();
      if (res.statusCode !== 200) return { ok: false, reason: `the receiver answered ${res.statusCode}` };
      if (text !== challenge)
        return { ok: false, reason: 'the receiver answered 200 but its body was not the challenge value' };
      return { ok: true };
    } catch (err) {
      return { ok: false, reason: `the receiver could not be reached (${describeFailure(err)})` };
    }
  }

  async close(): Promise<void> {
    this.closing.abort();
    for (const t of this.timers) this.store.clock.clearTimeout(t);
    this.timers.clear();
    await this.agent.destroy().catch(() => undefined);
  }
}
