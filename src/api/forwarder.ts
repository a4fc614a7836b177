import { loadUndici } from '../http/undici.js';

/**
 * How long the target may take. The service's own delivery is held open meanwhile, and the
 * service asks receivers to answer within a few seconds (docs/contract-rules.md, Events rule 3).
 */
export const FORWARD_TIMEOUT_MS = 5_000;

/**
 * Re-posts received deliveries to a local URL for `edp webhooks listen --forward-to`: the raw
 * body and the delivery's own headers, so the target can check the signature itself. A keep-alive
 * pool, so forwarding keeps up with the receiver. (The API client's undici, with its code cache.)
 */
export class DeliveryForwarder {
  private readonly undici = loadUndici();
  private readonly agent = new this.undici.Agent({ connections: 16, keepAliveTimeout: 10_000 });
  private readonly target: URL;

  constructor(
    url: string,
    readonly timeoutMs = FORWARD_TIMEOUT_MS,
  ) {
    this.target = new URL(url);
  }

  /** Resolves to the target's status; rejects when it cannot be reached or does not answer in time (a `TimeoutError`). */
  async forward(body: Buffer, headers: Record<string, string>): Promise<number> {
    const res = await this.undici.request.call(this.agent, {
      origin: this.target.origin,
      method: 'POST',
      path: this.target.pathname + this.target.search,
      headers: { ...headers, 'content-type': 'application/json' },
      body,
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    await res.body.dump();
    return res.statusCode;
  }

  async close(): Promise<void> {
    await this.agent.close().catch(() => undefined);
  }
}
