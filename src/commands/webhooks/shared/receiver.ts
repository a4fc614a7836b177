import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { JsonTooDeepError, LosslessNumber, MAX_JSON_DEPTH, parseJson, stringifyJson } from '../../../util/json.js';
import { parseEventTimestamp, ReplayWindow } from './replay-window.js';

/** Bodies above this are refused with 413 without being read further. */
export const MAX_BODY_BYTES = 1024 * 1024;
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
  return matchingSecret(secrets, matches) !== undefined;
}

/** The first of `secrets` that passes `matches`, every one being checked, as in `anySecret`. */
export function matchingSecret(secrets: readonly string[], matches: (secret: string) => boolean): string | undefined {
  let found: string | undefined;
  for (const s of secrets) if (matches(s)) found ??= s;
  return found;
}

/** A short digest of each secret seen, naming its endpoint in event keys. */
const endpointTags = new Map<string, string>();

/**
 * What identifies one event delivered to one endpoint, all of it signed: the endpoint (a digest
 * of the secret that signed the body: an event delivered to two endpoints is two deliveries),
 * the event's type and its id as JSON writes it: the number 1 and the string "1" are two ids,
 * as the signed bodies differ.
 */
export function eventKey(secret: string, type: string | undefined, id: string | number | LosslessNumber): string {
  let endpoint = endpointTags.get(secret);
  if (endpoint === undefined) {
    // A listener serves a handful of endpoints; secrets read from a changing file may add a few.
    if (endpointTags.size >= 1000) endpointTags.clear();
    endpoint = createHash('sha256').update(secret).digest('base64').slice(0, 8);
    endpointTags.set(secret, endpoint);
  }
  return `${endpoint}\u0000${type ?? ''}\u0000${typeof id === 'string' ? JSON.stringify(id) : String(id)}`;
}

export interface AcceptedDelivery {
  /** the event as one line of JSON */
  line: string;
  type: string | undefined;
  /** the event's id, as text */
  id: string;
  body: Buffer;
  /** the delivery's own signature and idempotency headers, as received */
  headers: Record<string, string>;
}

/**
 * What became of an accepted delivery, answered to the service. `delivered` remembers the
 * event, so that repeats are acknowledged without being handed on again; an event that was not
 * delivered is not remembered, so the service's retry gets through.
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
  /** the clock signed timestamps are judged by (milliseconds since the epoch); Date.now by default */
  now?: (() => number) | undefined;
  /** the events handed on recently; a new one on `now` by default */
  window?: ReplayWindow | undefined;
}

export interface Receiver {
  url: string;
  close(): Promise<void>;
}

function answer(res: ServerResponse, status: number, text: string, close = false, retryAfterS?: number): void {
  const headers: Record<string, string | number> = {
    'content-type': 'text/plain; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  };
  if (close) headers.connection = 'close';
  if (retryAfterS !== undefined) headers['retry-after'] = retryAfterS;
  res.writeHead(status, headers).end(text);
}

/**
 * The local receiver behind `edp webhooks listen`. Plain node:http rather than fastify: the
 * signature needs the raw body bytes, there is no routing, and the per-request overhead has to
 * stay minimal so that one core acknowledges thousands of deliveries a second.
 */
export async function startReceiver(opts: ReceiverOptions): Promise<Receiver> {
  const window = opts.window ?? new ReplayWindow(opts.now);
  /** deliveries being handed on, by event key */
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
    const secret = matchingSecret(opts.secrets(), (s) => signatureMatches(s, body, signature.value));
    if (secret === undefined) {
      opts.onNote('refused', 'refused a delivery whose signature does not match the secret (401)');
      return answer(res, 401, 'bad signature\n');
    }
    const text = body.toString('utf8');
    let event: { id?: unknown; type?: unknown; timestamp?: unknown };
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
    // A repeat is recognised by what the signature covers: the idempotency key header is not
    // signed, so anyone who captured a delivery could send it again under a new key. The key
    // only names the delivery in notes.
    const signedId =
      (typeof event.id === 'string' && event.id !== '') ||
      typeof event.id === 'number' ||
      event.id instanceof LosslessNumber
        ? event.id
        : undefined;
    if (signedId === undefined) {
      opts.onNote('refused', 'refused a signed delivery without an event id: its repeats could not be told (400)');
      return answer(res, 400, 'missing event id\n');
    }
    const id = String(signedId);
    const what = `${type ?? 'an event'} ${id}`;
    const at = parseEventTimestamp(event.timestamp);
    if (at === undefined) {
      opts.onNote(
        'refused',
        `refused ${what}: no timestamp shaped YYYY-MM-DD HH:MM:SS.mmm, so its age cannot be checked (400)`,
      );
      return answer(res, 400, 'missing or unreadable timestamp\n');
    }
    const idempotency = headerBySuffix(req.headers, '-idempotency-key');
    const named = `${what}${idempotency ? `, idempotency key ${idempotency.value}` : ''}`;
    const key = eventKey(secret, type, signedId);
    if (window.has(key)) {
      opts.onNote('duplicate', `acknowledged a repeated delivery (${named}) without emitting it again`);
      return answer(res, 200, 'ok (duplicate)\n');
    }
    const running = inFlight.get(key);
    if (running) {
      // A repeat while the first copy is still being handed on: it gets the first copy's answer
      // and is not handed on a second time.
      opts.onNote(
        'duplicate',
        `a repeated delivery (${named}) arrived while the first is still being handed on; it gets the same answer`,
      );
      void running.then((o) => answer(res, o.status, o.delivered ? 'ok (duplicate)\n' : 'not delivered\n'));
      return;
    }
    const stale = window.outside(at);
    if (stale !== undefined) {
      opts.onNote('refused', `refused ${what} stamped ${String(event.timestamp)}: ${stale} (400)`);
      return answer(res, 400, 'timestamp outside the replay window\n');
    }
    if (opts.events && (type === undefined || !opts.events.has(type))) {
      // Nothing is handed on, so nothing needs remembering: a repeat is dropped the same way.
      opts.onNote('filtered', `acknowledged ${type ?? 'an event without a type'}, not in --events`);
      return answer(res, 200, 'ok\n');
    }
    if (window.room() <= inFlight.size) {
      // Full of events still inside the window: forgetting one would let its replay through.
      const after = window.retryAfterS();
      opts.onNote(
        'refused',
        `refused ${what} for now: ${window.capacity} recent events are remembered, the most kept at once; answered 503, so the service delivers it again`,
      );
      return answer(res, 503, 'too many recent events; deliver again later\n', false, after);
    }
    const headers: Record<string, string> = { [signature.name]: signature.value };
    if (idempotency) headers[idempotency.name] = idempotency.value;
    // One event per line: compact bodies are printed as received, others re-serialised losslessly.
    const line = /[\r\n]/.test(text) ? stringifyJson(event) : text;
    const settle = (o: DeliveryOutcome) => {
      // Remembered only once handed on: a delivery that failed must get through when repeated.
      if (o.delivered) window.record(key, at);
      answer(res, o.status, o.delivered ? 'ok\n' : 'not delivered\n');
      return o;
    };
    let handed: DeliveryOutcome | Promise<DeliveryOutcome>;
    try {
      handed = opts.onEvent({ line, type, id, body, headers });
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
      .finally(() => inFlight.delete(key));
    inFlight.set(key, outcome);
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
