import type Agent from 'undici/lib/dispatcher/agent.js';
import { loadUndici, type Undici } from '../http/undici.js';
import { ApiError, NetworkError, OutcomeUnknownError, UsageError } from '../errors.js';
import { JsonTooDeepError, parseJson, stringifyJson } from '../util/json.js';
import { defaultExpect, shapeProblem, type Answer, type Expect } from './shape.js';
import { sleep } from '../util/sleep.js';
import { namesAnotherHost, withQuery, type Query } from './path.js';
import {
  decideRetry,
  defaultRetryPolicy,
  RetryBudget,
  type Outcome,
  type RetryNotice,
  type RetryPolicy,
} from './retry.js';

/**
 * Milliseconds since `started` (process.hrtime.bigint()). Not performance.now(): the global
 * loads Node's whole performance API (~1 ms of start-up) on first use.
 */
function elapsedMs(started: bigint): number {
  return Math.round(Number(process.hrtime.bigint() - started) / 1e6);
}

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
/** basic: agency operations; bearer: workspace operations (token, or cookie session); none: no header. */
export type AuthKind = 'basic' | 'bearer' | 'none';

export interface RequestSpec {
  method: Method;
  /** Path relative to the base URL, built with `path` so ids are encoded. */
  path: string;
  query?: Query | undefined;
  body?: unknown;
  auth: AuthKind;
  /** Workspace of a bearer operation. */
  workspaceId?: string | undefined;
  /**
   * The request may be sent again without harm. Reads are; writes are not unless the caller
   * says so (a configuration PUT is: docs/contract-rules.md, Retries 3).
   */
  repeatable?: boolean | undefined;
  /** What a 2xx answer must hold (default: reads an object, writes JSON or nothing). */
  expect?: Expect | undefined;
  /** A POST that changes nothing at the service (token issuance, a list read with a body). */
  changesNothing?: boolean | undefined;
}

export interface ApiResponse<T = unknown> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  data: T;
  traceId: string | undefined;
}

/** An answer as read off the wire, before its status is judged. */
interface Received extends ApiResponse {
  answer: Answer;
}

export interface RequestLogEntry {
  method: string;
  path: string;
  status: number | 'error';
  ms: number;
  traceId: string | undefined;
  attempt: number;
  note?: string | undefined;
}

/** Supplies authentication headers; owns token issuance and renewal. */
export interface AuthProvider {
  headers(kind: AuthKind, workspaceId: string | undefined, client: ApiClient): Promise<Record<string, string>>;
  /** Called on a 401 to a bearer call: true when a fresh token was obtained and the call may be repeated. */
  renew(workspaceId: string | undefined, client: ApiClient): Promise<boolean>;
  /** Called after every authorized bearer answer: the token's sliding expiry restarts. */
  used(workspaceId: string | undefined): void;
}

export interface ClientOptions {
  baseUrl: string;
  timeoutMs: number;
  auth: AuthProvider;
  log?: ((entry: RequestLogEntry) => void) | undefined;
  policy?: RetryPolicy | undefined;
  budget?: RetryBudget | undefined;
  signal?: AbortSignal | undefined;
  userAgent?: string | undefined;
  /** For tests of the retry timing. */
  sleep?: ((ms: number, signal?: AbortSignal) => Promise<void>) | undefined;
  connections?: number | undefined;
  /** Told before each repeat, so that a person waiting sees why nothing arrives yet. */
  onRetry?: ((notice: RetryNotice) => void) | undefined;
  /** The largest answer read, in bytes (default DEFAULT_MAX_RESPONSE_BYTES). */
  maxResponseBytes?: number | undefined;
}

/** 64 MiB: far beyond any page of the contract's lists (100 items), well within memory. */
export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'UND_ERR_CONNECT_TIMEOUT',
  'ENETUNREACH',
  'EHOSTUNREACH',
]);

function header(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/**
 * The only code that talks HTTP. Keep-alive pool, per-request timeout, no redirects (a 3xx is
 * reported with the canonical path: following one would turn a POST into a GET and lose the
 * body), lossless JSON, typed errors, retries by the contract's rules.
 */
export class ApiClient {
  readonly baseUrl: string;
  private readonly base: URL;
  private readonly agent: InstanceType<typeof Agent>;
  private readonly undici: Undici;
  private readonly policy: RetryPolicy;
  private readonly budget: RetryBudget;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /**
   * When the service asks to slow down (503 or 429 with Retry-After), no request of this run
   * is sent before this time (ms since the epoch): a fleet waits as one, rather than each of
   * its workspaces retrying on its own.
   */
  private pausedUntil = 0;
  /** Whether a request that may change something at the service has been sent (or begun) in this run. */
  changesSent = false;

  constructor(private readonly opts: ClientOptions) {
    this.base = new URL(opts.baseUrl);
    this.baseUrl = opts.baseUrl.replace(/\/+$/, '');
    this.undici = loadUndici();
    this.agent = new this.undici.Agent({ keepAliveTimeout: 10_000, connections: opts.connections ?? 32 });
    this.policy = opts.policy ?? defaultRetryPolicy;
    this.budget = opts.budget ?? new RetryBudget(50);
    this.sleep = opts.sleep ?? sleep;
  }

  async close(): Promise<void> {
    // Pending keep-alive sockets would hold the process open: the run is over, drop them.
    await this.agent.destroy();
  }

  /** A read whose answer must be an object with `fields` (or `expect`, for lists). */
  get<T = unknown>(path: string, auth: AuthKind, workspaceId?: string, expect: Expect = [], query?: Query): Promise<T> {
    return this.request<T>({ method: 'GET', path, auth, workspaceId, query, expect }).then((r) => r.data);
  }

  async request<T = unknown>(spec: RequestSpec): Promise<ApiResponse<T>> {
    const repeatable = spec.repeatable ?? spec.method === 'GET';
    const target = withQuery(spec.path, spec.query);
    // Before any credential is looked up: a path that resolves elsewhere is never sent.
    this.urlOf(spec.method, target);
    if (spec.method !== 'GET' && !spec.changesNothing) this.changesSent = true;
    let renewed = false;
    for (let attempt = 1; ; attempt++) {
      const paused = this.pausedUntil - Date.now();
      if (paused > 0) await this.sleep(paused, this.opts.signal);
      // Credentials problems (none configured, token issuance refused) are not network faults.
      const authHeaders = await this.opts.auth.headers(spec.auth, spec.workspaceId, this);
      const started = process.hrtime.bigint();
      let outcome: Outcome;
      try {
        const res = await this.send(spec, target, authHeaders);
        const ms = elapsedMs(started);
        this.opts.log?.({ method: spec.method, path: target, status: res.status, ms, traceId: res.traceId, attempt });
        if (res.status >= 200 && res.status < 300) {
          if (spec.auth === 'bearer') this.opts.auth.used(spec.workspaceId);
          // Never a silent success or an empty list on an answer the commands cannot read.
          const problem = shapeProblem(res.answer, spec.expect ?? defaultExpect(spec.method));
          if (problem) throw unexpectedResponse(spec.method, target, res, problem);
          const { answer: _answer, ...response } = res;
          return response as ApiResponse<T>;
        }
        const error = apiErrorFromResponse(spec.method, target, res);
        if (res.status === 401 && spec.auth === 'bearer' && !renewed) {
          // An authentication refusal means nothing was done, so any method may be repeated.
          renewed = true;
          if (await this.opts.auth.renew(spec.workspaceId, this)) {
            attempt--;
            continue;
          }
        }
        outcome = {
          kind: 'status',
          status: res.status,
          code: error.code,
          retryAfter: header(res.headers, 'retry-after'),
        };
        const decision = decideRetry(this.policy, outcome, attempt, repeatable);
        if (decision.retry && this.budget.take()) {
          this.opts.log?.({
            method: spec.method,
            path: target,
            status: res.status,
            ms,
            traceId: res.traceId,
            attempt,
            note: `retrying in ${decision.delayMs} ms`,
          });
          const slowDown = res.status === 503 || res.status === 429;
          // One pause for the whole run, said once: answers that arrive during it extend it quietly.
          const alreadyPaused = slowDown && this.pausedUntil > Date.now();
          if (slowDown) this.pausedUntil = Math.max(this.pausedUntil, Date.now() + decision.delayMs);
          if (!alreadyPaused)
            this.opts.onRetry?.({
              method: spec.method,
              path: target,
              cause: { kind: 'status', status: res.status, code: error.code },
              delayMs: decision.delayMs,
              nextAttempt: attempt + 1,
              maxAttempts: this.policy.maxAttempts,
              everyone: slowDown,
            });
          if (!slowDown) await this.sleep(decision.delayMs, this.opts.signal);
          continue;
        }
        if (res.status === 503 && !repeatable)
          throw new OutcomeUnknownError(spec.method, target, error, this.base.origin);
        throw error;
      } catch (err) {
        if (err instanceof ApiError || err instanceof OutcomeUnknownError) throw err;
        if (this.opts.signal?.aborted) throw err;
        const code = (err as { code?: string }).code;
        const sent = !(code && NOT_SENT_CODES.has(code));
        const ms = elapsedMs(started);
        this.opts.log?.({
          method: spec.method,
          path: target,
          status: 'error',
          ms,
          traceId: undefined,
          attempt,
          note: String(code ?? (err as Error).name),
        });
        outcome = { kind: 'network', sent };
        const decision = decideRetry(this.policy, outcome, attempt, repeatable);
        if (decision.retry && this.budget.take()) {
          // A timeout's DOMException carries a numeric legacy code (23): its name says more.
          const faultCode = typeof code === 'string' ? code : String((err as Error).name || 'error');
          this.opts.onRetry?.({
            method: spec.method,
            path: target,
            cause: { kind: 'network', code: faultCode, sent },
            delayMs: decision.delayMs,
            nextAttempt: attempt + 1,
            maxAttempts: this.policy.maxAttempts,
          });
          await this.sleep(decision.delayMs, this.opts.signal);
          continue;
        }
        if (!repeatable && sent) throw new OutcomeUnknownError(spec.method, target, err, this.base.origin);
        throw new NetworkError(spec.method, target, err, this.base.origin);
      }
    }
  }

  /**
   * The address a request goes to, which must be the configured service's origin: a path that
   * a URL parser reads as another host (`//host`, `/\\host`, `/%5Chost` once decoded by a
   * proxy, an absolute URL, a paging `next` link pointing elsewhere) is refused before anything
   * is sent, so that credentials only ever go to the service (exit 2).
   */
  private urlOf(method: string, target: string): URL {
    const refuse = (why: string) =>
      new UsageError(
        `refused to send ${method} ${target}: ${why}; requests go only to the configured service, ${this.base.origin}`,
      );
    if (namesAnotherHost(target) && !/^[a-z][a-z0-9+.-]*:\/\//i.test(target))
      throw refuse('the path names another host');
    let url: URL;
    try {
      url = new URL(target, this.base);
    } catch {
      throw refuse('it is not a path');
    }
    if (url.origin !== this.base.origin) throw refuse(`it resolves to ${url.origin}`);
    if (url.username !== this.base.username || url.password !== this.base.password)
      throw refuse('it carries credentials');
    return url;
  }

  private async send(spec: RequestSpec, target: string, authHeaders: Record<string, string>): Promise<Received> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': this.opts.userAgent ?? 'edp',
      ...authHeaders,
    };
    let body: string | undefined;
    if (spec.body !== undefined) {
      body = typeof spec.body === 'string' ? spec.body : stringifyJson(spec.body);
      headers['content-type'] = 'application/json';
    }
    const url = this.urlOf(spec.method, target);
    const signals = [AbortSignal.timeout(this.opts.timeoutMs)];
    if (this.opts.signal) signals.push(this.opts.signal);
    const res = await this.undici.request.call(this.agent, {
      origin: url.origin,
      path: url.pathname + url.search,
      method: spec.method,
      headers,
      body,
      signal: signals.length === 1 ? signals[0] : AbortSignal.any(signals),
    });
    const resHeaders = res.headers as Record<string, string | string[] | undefined>;
    const traceId = header(resHeaders, 'x-im-trace-id');
    const text = await this.readBody(res, spec.method, target, traceId);
    const contentType = header(resHeaders, 'content-type') ?? '';
    let data: unknown = undefined;
    let json = false;
    if (text.length > 0) {
      if (contentType.includes('json') || /^\s*[[{]/.test(text)) {
        try {
          data = parseJson(text);
          json = true;
        } catch (err) {
          if (err instanceof JsonTooDeepError)
            throw new ApiError({
              status: res.statusCode,
              code: 'unexpected_response',
              message: `the answer to ${spec.method} ${target} (${res.statusCode}) is ${err.message}`,
              traceId,
              method: spec.method,
              path: target,
              details: { problem: err.message },
            });
          data = text;
        }
      } else {
        data = text;
      }
    }
    return {
      status: res.statusCode,
      headers: resHeaders,
      data,
      traceId,
      answer: { text, data, json, contentType },
    };
  }

  /**
   * The body, refused past maxResponseBytes (announced or counted as it arrives): an answer
   * that large is not the service's, and reading it whole could exhaust memory. Not retried.
   */
  private async readBody(
    res: { statusCode: number; headers: Record<string, unknown>; body: AsyncIterable<Buffer> & { destroy(): void } },
    method: string,
    target: string,
    traceId: string | undefined,
  ): Promise<string> {
    const max = this.opts.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    const tooLarge = () => {
      res.body.destroy();
      return new ApiError({
        status: res.statusCode,
        code: 'response_too_large',
        message: `the answer to ${method} ${target} is larger than ${formatBytes(max)}, the most edp reads (EDP_MAX_RESPONSE_MB sets it)`,
        traceId,
        method,
        path: target,
        details: { limit_bytes: max },
      });
    };
    const announced = Number(header(res.headers as Record<string, string | string[] | undefined>, 'content-length'));
    if (Number.isFinite(announced) && announced > max) throw tooLarge();
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body) {
      size += chunk.length;
      if (size > max) throw tooLarge();
      chunks.push(chunk);
    }
    return Buffer.concat(chunks, size).toString('utf8');
  }
}

/** A 2xx answer the commands cannot read: exit 1, naming the operation, the problem and the trace id. */
function unexpectedResponse(method: string, target: string, res: ApiResponse, problem: string): ApiError {
  return new ApiError({
    status: res.status,
    code: 'unexpected_response',
    message: `unexpected answer to ${method} ${target} (${res.status}): ${problem}`,
    traceId: res.traceId,
    method,
    path: target,
    details: { problem },
    body: typeof res.data === 'string' ? textOfHtml(res.data) : res.data,
  });
}

function formatBytes(n: number): string {
  return n % (1024 * 1024) === 0 ? `${n / (1024 * 1024)} MiB` : `${n} bytes`;
}

/** Reads either error envelope, an HTML page or an empty body into one typed error. */
export function apiErrorFromResponse(method: string, target: string, res: ApiResponse): ApiError {
  const base = { status: res.status, traceId: res.traceId, method, path: target, body: res.data };
  if (res.status >= 300 && res.status < 400) {
    const location = header(res.headers, 'location');
    const canonical = location ? new URL(location, 'http://x').pathname : undefined;
    return new ApiError({
      ...base,
      code: 'redirect',
      message: `the service redirected ${method} ${target} to ${location ?? '(no location)'}; redirects are not followed${canonical ? ` (canonical path: ${canonical})` : ''}`,
      details: location ? { location } : {},
    });
  }
  const data = res.data;
  if (data && typeof data === 'object' && !Array.isArray(data)) {
    const body = data as Record<string, unknown>;
    if (typeof body.code === 'string') {
      const details = body.details && typeof body.details === 'object' ? (body.details as Record<string, unknown>) : {};
      return new ApiError({
        ...base,
        code: body.code,
        message: typeof body.message === 'string' ? body.message : body.code,
        details,
      });
    }
    // {detail: text} (one page spells it `details`); any other keys travel as details.
    const text =
      typeof body.detail === 'string' ? body.detail : typeof body.details === 'string' ? body.details : undefined;
    const rest: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(body)) {
      if ((k === 'detail' || k === 'details') && typeof v === 'string') continue;
      rest[k] = v;
    }
    return new ApiError({ ...base, message: text ?? summarize(body), details: rest });
  }
  if (typeof data === 'string' && data.length > 0) {
    return new ApiError({ ...base, message: textOfHtml(data) });
  }
  return new ApiError({ ...base, message: statusText(res.status) });
}

function summarize(body: Record<string, unknown>): string {
  const first = Object.entries(body)[0];
  if (!first) return 'error';
  const [k, v] = first;
  return `${k}: ${Array.isArray(v) ? v.join(' ') : typeof v === 'string' ? v : stringifyJson(v)}`;
}

/** Only the start of an error page is read for its message: the title or first words are there. */
const HTML_SCAN_LIMIT = 64 * 1024;

/**
 * A readable line from an HTML error page (v3 may answer with one): its title, else its text.
 * One pass with indexOf, no backtracking pattern: a hostile page (`<title<title…`, `<<<<…`)
 * costs as much as its length, and only its first 64 KiB are looked at.
 */
export function textOfHtml(html: string): string {
  const text = html.length > HTML_SCAN_LIMIT ? html.slice(0, HTML_SCAN_LIMIT) : html;
  const lower = text.toLowerCase();
  let inner: string | undefined;
  const open = lower.indexOf('<title');
  if (open >= 0) {
    const start = lower.indexOf('>', open);
    const end = start >= 0 ? lower.indexOf('</title>', start) : -1;
    if (end >= 0) inner = text.slice(start + 1, end);
  }
  const plain = collapse(stripTags(inner ?? dropBlocks(text, lower)));
  return plain.length > 200 ? `${plain.slice(0, 197)}...` : plain || 'error';
}

/** The text without `<script>…</script>` and `<style>…</style>` blocks. */
function dropBlocks(text: string, lower: string): string {
  let out = '';
  let at = 0;
  // Each position is found once and kept until passed, so the text is scanned a bounded number of times.
  let script = lower.indexOf('<script');
  let style = lower.indexOf('<style');
  for (;;) {
    if (script >= 0 && script < at) script = lower.indexOf('<script', at);
    if (style >= 0 && style < at) style = lower.indexOf('<style', at);
    const open = script < 0 ? style : style < 0 ? script : Math.min(script, style);
    if (open < 0) return out + text.slice(at);
    const closing = open === script ? '</script>' : '</style>';
    const close = lower.indexOf(closing, open);
    out += `${text.slice(at, open)} `;
    if (close < 0) return out;
    at = close + closing.length;
  }
}

/** Each `<…>` replaced by a space; a `<` that is never closed ends the text. */
function stripTags(text: string): string {
  let out = '';
  let at = 0;
  for (;;) {
    const open = text.indexOf('<', at);
    if (open < 0) return out + text.slice(at);
    out += `${text.slice(at, open)} `;
    const close = text.indexOf('>', open);
    if (close < 0) return out;
    at = close + 1;
  }
}

const collapse = (s: string) => s.replace(/\s+/g, ' ').trim();

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  410: 'Gone',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

function statusText(status: number): string {
  return STATUS_TEXT[status] ?? `HTTP ${status}`;
}
