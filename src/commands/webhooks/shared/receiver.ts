import { createHmac, timingSafeEqual } from 'node:crypto';
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { JsonTooDeepError, MAX_JSON_DEPTH, parseJson, stringifyJson } from '../../../util/json.js';

/** Bodies above this are refused with 413 without being read further. */
export const MAX_BODY_BYTES = 1024 * 1024;
/** A repeated idempotency key is recognised for at least this long. */
export const DEDUPE_WINDOW_MS = 10 * 60_000;
/**
 * Memory bound of the dedupe window. Past it the oldest keys are forgotten early; at the
 * contract's delivery rates that is far beyond ten minutes of traffic.
 */
export const DEDUPE_MAX_KEYS = 200_000;

/**
 * The first header whose name has the given suffix after an `X-` prefix: the contract spells
 * the maker's word neutrally (`X-Service-Signature`), so `X-*-Signature` is matched.
 */
export function headerBySuffix(
  headers: IncomingHttpHeaders,
  suffix: string,
): { name: string; value: string } | undefined {
  for (const name in headers) {
    if (name.startsWith('x-') && name.endsWith(suffix)) {
      const value = headers[name];
      const text = Array.isArray(value) ? value[0] : value;
      if (text !== undefined) return { name, value: text };
    }
  }
  return undefined;
}

function decodeSignature(text: string): Buffer | undefined {
  const v = text.trim();
  // hex as the contract sends it (lowercase; case is not significant), base64 also accepted
  if (/^[0-9a-fA-F]{64}$/.test(v)) return Buffer.from(v, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(v))
    return Buffer.from(v, v.includes('-') || v.includes('_') ? 'base64url' : 'base64');
  return undefined;
}

/** HMAC-SHA256 of the raw body keyed with the secret, compared in constant time. */
export function signatureMatches(secret: string, body: Buffer, provided: string): boolean {
  const given = decodeSignature(provided);
  if (!given || given.length !== 32) return false;
  const expected = createHmac('sha256', secret).update(body).digest();
  return timingSafeEqual(given, expected);
}

/** The verify token against the secret, in constant time (digests make the lengths equal). */
export function secretMatches(secret: string, provided: string): boolean {
  const digest = (v: string) => createHmac('sha256', 'edp-verify-token').update(v).digest();
  return timingSafeEqual(digest(secret), digest(provided));
}

/**
 * Whether any of `secrets` passes `matches`. Every secret is checked, whichever matches, so the
 * time taken says nothing about which one did (or how far the list was read).
 */
export function anySecret(secrets: readonly string[], matches: (secret: string) => boolean): boolean {
  let found = false;
  for (const s of secrets) found = matches(s) || found;
  return found;
}

/**
 * Idempotency keys seen in the last `windowMs`, in bounded memory. Every key lives exactly
 * `windowMs`, so insertion order is expiry order and expired keys are dropped from the front.
 */
export class SeenKeys {
  private readonly expiry = new Map<string, number>();

  constructor(
    private readonly windowMs = DEDUPE_WINDOW_MS,
    private readonly maxKeys = DEDUPE_MAX_KEYS,
    private readonly now: () => number = Date.now,
  ) {}

  private expire(t: number): void {
    for (const [k, until] of this.expiry) {
      if (until > t) break;
      this.expiry.delete(k);
    }
  }

  /** True when the key was recorded within the window. */
  has(key: string): boolean {
    this.expire(this.now());
    return this.expiry.has(key);
  }

  /** Records the key for the window from now. */
  record(key: string): void {
    const t = this.now();
    this.expire(t);
    this.expiry.delete(key);
    this.expiry.set(key, t + this.windowMs);
    if (this.expiry.size > this.maxKeys) this.expiry.delete(this.expiry.keys().next().value!);
  }

  /** True when the key was seen within the window; otherwise records it and answers false. */
  seen(key: string): boolean {
    if (this.has(key)) return true;
    this.record(key);
    return false;
  }

  get size(): number {
    return this.expiry.size;
  }
}

export interface AcceptedDelivery {
  /** the event as one line of JSON */
  line: string;
  type: string | undefined;
  /** the event's id, as text */
  id: string | undefined;
  body: Buffer;
  /** the delivery's own signature and idempotency headers, as received */
  headers: Record<string, string>;
}

/**
 * What became of an accepted delivery, answered to the service. `delivered` records the
 * idempotency key, so that repeats are acknowledged without being handed on again; a delivery
 * that was not delivered leaves the key unrecorded, so the service's retry gets through.
 */
export interface DeliveryOutcome {
  status: number;
  delivered: boolean;
}

export interface ReceiverOptions {
  /** The signing secrets accepted: one per endpoint this receiver serves (read at each request). */
  secrets: () => readonly string[];
  host: string;
  port: number;
  /** only these event types are emitted (others are acknowledged and dropped) */
  events?: ReadonlySet<string> | undefined;
  /** hands the event on (prints or forwards it); the outcome is the answer to the service */
  onEvent(delivery: AcceptedDelivery): DeliveryOutcome | Promise<DeliveryOutcome>;
  onNote(kind: 'challenge' | 'duplicate' | 'filtered' | 'refused', text: string): void;
  seen?: SeenKeys | undefined;
}

export interface Receiver {
  url: string;
  close(): Promise<void>;
}

function answer(res: ServerResponse, status: number, text: string, close = false): void {
  const headers: Record<string, string | number> = {
    'content-type': 'text/plain; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  };
  if (close) headers.connection = 'close';
  res.writeHead(status, headers).end(text);
}

/**
 * The local receiver behind `edp webhooks listen`. Plain node:http rather than fastify: the
 * signature needs the raw body bytes, there is no routing, and the per-request overhead has to
 * stay minimal so that one core acknowledges thousands of deliveries a second.
 */
export async function startReceiver(opts: ReceiverOptions): Promise<Receiver> {
  const seen = opts.seen ?? new SeenKeys();
  /** deliveries being handed on, by idempotency key */
  const inFlight = new Map<string, Promise<DeliveryOutcome>>();

  const tooLarge = (req: IncomingMessage, res: ServerResponse) => {
    opts.onNote('refused', `refused a delivery over ${MAX_BODY_BYTES} bytes (413)`);
    // Stop reading: the rest of an oversized body is not worth receiving.
    res.on('finish', () => req.socket.destroy());
    answer(res, 413, 'payload too large\n', true);
  };

  const deliver = (req: IncomingMessage, res: ServerResponse, body: Buffer) => {
    const signature = headerBySuffix(req.headers, '-signature');
    if (!signature) {
      opts.onNote('refused', 'refused a delivery without a signature header (401)');
      return answer(res, 401, 'missing signature\n');
    }
    if (!anySecret(opts.secrets(), (s) => signatureMatches(s, body, signature.value))) {
      opts.onNote('refused', 'refused a delivery whose signature does not match the secret (401)');
      return answer(res, 401, 'bad signature\n');
    }
    const text = body.toString('utf8');
    let event: { id?: unknown; type?: unknown };
    try {
      // Depth-checked: a body nested thousands deep would overflow the stack when re-serialised.
      event = parseJson(text) as typeof event;
      if (!event || typeof event !== 'object' || Array.isArray(event)) throw new Error('not an object');
    } catch (err) {
      if (err instanceof JsonTooDeepError) {
        opts.onNote('refused', `refused a signed delivery nested deeper than ${MAX_JSON_DEPTH} levels (400)`);
        return answer(res, 400, 'body nested too deep\n');
      }
      opts.onNote('refused', 'refused a signed delivery whose body is not a JSON object (400)');
      return answer(res, 400, 'body is not a JSON object\n');
    }
    const type = typeof event.type === 'string' ? event.type : undefined;
    const idempotency = headerBySuffix(req.headers, '-idempotency-key');
    // Without the header, the event id identifies a repeat.
    const key = idempotency?.value ?? (event.id !== undefined ? `event:${String(event.id)}` : undefined);
    const keyText =
      key === undefined ? '' : `${idempotency ? 'idempotency key' : 'event id'} ${key.replace(/^event:/, '')}`;
    if (key !== undefined && seen.has(key)) {
      opts.onNote('duplicate', `acknowledged a repeated delivery (${keyText}) without emitting it again`);
      return answer(res, 200, 'ok (duplicate)\n');
    }
    const running = key === undefined ? undefined : inFlight.get(key);
    if (running) {
      // A repeat while the first copy is still being handed on: it gets the first copy's answer
      // and is not handed on a second time.
      opts.onNote(
        'duplicate',
        `a repeated delivery (${keyText}) arrived while the first is still being handed on; it gets the same answer`,
      );
      void running.then((o) => answer(res, o.status, o.delivered ? 'ok (duplicate)\n' : 'not delivered\n'));
      return;
    }
    if (opts.events && (type === undefined || !opts.events.has(type))) {
      if (key !== undefined) seen.record(key);
      opts.onNote('filtered', `acknowledged ${type ?? 'an event without a type'}, not in --events`);
      return answer(res, 200, 'ok\n');
    }
    const headers: Record<string, string> = { [signature.name]: signature.value };
    if (idempotency) headers[idempotency.name] = idempotency.value;
    // One event per line: compact bodies are printed as received, others re-serialised losslessly.
    const line = /[\r\n]/.test(text) ? stringifyJson(event) : text;
    const settle = (o: DeliveryOutcome) => {
      // Recorded only once handed on: a delivery that failed must get through when repeated.
      if (o.delivered && key !== undefined) seen.record(key);
      answer(res, o.status, o.delivered ? 'ok\n' : 'not delivered\n');
      return o;
    };
    let handed: DeliveryOutcome | Promise<DeliveryOutcome>;
    try {
      handed = opts.onEvent({
        line,
        type,
        id: event.id === undefined || event.id === null ? undefined : String(event.id),
        body,
        headers,
      });
    } catch {
      handed = { status: 500, delivered: false };
    }
    if (!(handed instanceof Promise)) {
      settle(handed);
      return;
    }
    const outcome = handed
      .catch((): DeliveryOutcome => ({ status: 500, delivered: false }))
      .then(settle)
      .finally(() => {
        if (key !== undefined) inFlight.delete(key);
      });
    if (key !== undefined) inFlight.set(key, outcome);
  };

  const server: Server = createServer((req, res) => {
    if (req.method === 'GET' || req.method === 'HEAD') {
      // Verification (docs/contract-rules.md, Events rule 6): answer 200 with the challenge value as the body.
      // The service sends the endpoint's secret in X-*-Verify-Token (the contract names the
      // header; its vendor documents the value), so a token that is not this listener's secret
      // is refused: the GET does not come from the endpoint this listener serves. A GET without
      // the header is answered, since the contract does not promise it.
      const challenge = headerBySuffix(req.headers, '-challenge');
      const token = headerBySuffix(req.headers, '-verify-token');
      req.resume();
      if (!challenge) return answer(res, 400, 'expected a verification GET with an X-*-Challenge header\n');
      if (token && !anySecret(opts.secrets(), (s) => secretMatches(s, token.value))) {
        opts.onNote('refused', 'refused a verification whose verify token is not the secret (401)');
        return answer(res, 401, 'verify token does not match\n');
      }
      opts.onNote('challenge', 'answered a verification challenge');
      res
        .writeHead(200, { 'content-type': 'text/plain', 'content-length': Buffer.byteLength(challenge.value) })
        .end(challenge.value);
      return;
    }
    if (req.method !== 'POST') {
      req.resume();
      res.setHeader('allow', 'GET, HEAD, POST');
      return answer(res, 405, 'method not allowed\n');
    }
    const declared = Number(req.headers['content-length']);
    if (declared > MAX_BODY_BYTES) return tooLarge(req, res);
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    req.on('data', (chunk: Buffer) => {
      if (refused) return;
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        refused = true;
        return tooLarge(req, res);
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (!refused) deliver(req, res, chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    });
  });
  server.keepAliveTimeout = 65_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const host = opts.host.includes(':') ? `[${opts.host}]` : opts.host;
  return {
    url: `http://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
