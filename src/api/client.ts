import type Agent from 'undici/lib/dispatcher/agent.js';
import { loadUndici, type Undici } from '../http/undici.js';
import { ApiError, NetworkError, OutcomeUnknownError, UsageError } from '../errors.js';
import { parseJson, stringifyJson } from '../util/json.js';
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
   * says so (a configuration PUT is, per the contract).
   */
  repeatable?: boolean | undefined;
}

export interface ApiResponse<T = unknown> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  data: T;
  traceId: string | undefined;
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
}

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

  get<T = unknown>(path: string, auth: AuthKind, workspaceId?: string, query?: Query): Promise<T> {
    return this.request<T>({ method: 'GET', path, auth, workspaceId, query }).then((r) => r.data);
  }

  async request<T = unknown>(spec: RequestSpec): Promise<ApiResponse<T>> {
    const repeatable = spec.repeatable ?? spec.method === 'GET';
    const target = withQuery(spec.path, spec.query);
    // Before any credential is looked up: a path that resolves elsewhere is never sent.
    this.urlOf(spec.method, target);
    let renewed = false;
    for (let attempt = 1; ; attempt++) {
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
          return res as ApiResponse<T>;
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
          this.opts.onRetry?.({
            method: spec.method,
            path: target,
            cause: { kind: 'status', status: res.status, code: error.code },
            delayMs: decision.delayMs,
            nextAttempt: attempt + 1,
            maxAttempts: this.policy.maxAttempts,
          });
          await this.sleep(decision.delayMs, this.opts.signal);
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

  private async send(spec: RequestSpec, target: string, authHeaders: Record<string, string>): Promise<ApiResponse> {
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
    const text = await res.body.text();
    const resHeaders = res.headers as Record<string, string | string[] | undefined>;
    const contentType = header(resHeaders, 'content-type') ?? '';
    let data: unknown = undefined;
    if (text.length > 0) {
      if (contentType.includes('json') || /^\s*[[{]/.test(text)) {
        try {
          data = parseJson(text);
        } catch {
          data = text;
        }
      } else {
        data = text;
      }
    }
    return { status: res.statusCode, headers: resHeaders, data, traceId: header(resHeaders, 'x-im-trace-id') };
  }
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

/** A readable line from an HTML error page (v3 may answer with one): its title, else its text. */
export function textOfHtml(text: string): string {
  const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(text)?.[1];
  const plain = (title ?? text.replace(/<script[\s\S]*?<\/script>|<style[\s\S]*?<\/style>/gi, ' '))
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return plain.length > 200 ? `${plain.slice(0, 197)}...` : plain || 'error';
}

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
