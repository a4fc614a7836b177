import type { Dispatcher } from 'undici';
import type { AuthKind, Method } from '../contract/operations.js';
import { loadUndici, type Undici } from '../http/undici.js';
import { proxyFault, proxyFor, type ProxyEnvironment, type ProxyRoute } from '../http/proxy.js';
import { ApiError, NetworkError, OutcomeUnknownError, UsageError, withHint } from '../errors.js';
import { JsonDuplicateKeyError, JsonTooDeepError, parseJson, stringifyJson } from '../util/json.js';
import { defaultExpect, shapeProblem, type Answer, type Expect } from './shape.js';
import { sleep } from '../util/sleep.js';
import { ReadLimitError, readLimitPassed, readLimits, type ReadLimit } from '../util/poll.js';
import { basePathOf, namesAnotherHost, sentPathProblem, withQuery, type Query } from './path.js';
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
  /** the proxy the request went through (scheme://host:port, never its credentials) */
  via?: string | undefined;
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
  /** The pause before a repeat (default: real time); tests give their own. */
  sleep?: ((ms: number, signal?: AbortSignal) => Promise<void>) | undefined;
  connections?: number | undefined;
  /**
   * The environment the proxy variables are read from (HTTPS_PROXY, HTTP_PROXY, NO_PROXY and
   * their lower-case forms: src/http/proxy.ts). Without it requests go straight to the service.
   */
  env?: ProxyEnvironment | undefined;
  /** Told before each repeat, so that a person waiting sees why nothing arrives yet. */
  onRetry?: ((notice: RetryNotice) => void) | undefined;
  /** The largest answer read, in bytes (default DEFAULT_MAX_RESPONSE_BYTES). */
  maxResponseBytes?: number | undefined;
  /**
   * The most bytes of answers being read at once, every request of the run together: the
   * concurrent pages of every workspace share it (default ANSWER_BUDGET_ANSWERS answers of
   * maxResponseBytes).
   */
  answerBudgetBytes?: number | undefined;
  /**
   * How much the run's memory may grow while answers are read: what the commands keep (a
   * list gathered whole) counts too (default MEMORY_BUDGET_ANSWERS answers of
   * maxResponseBytes, at most three quarters of V8's heap limit).
   */
  memoryBudgetBytes?: number | undefined;
  /** The memory in use, in bytes (default: V8's heap in use and buffers outside it). For tests. */
  memoryInUse?: (() => number) | undefined;
}

/** 64 MiB: far beyond any page of the contract's lists (100 items), well within memory. */
export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

/** The answers a run reads at once, in answers of the largest size: 256 MiB by default. */
export const ANSWER_BUDGET_ANSWERS = 4;
/** How much a run's memory may grow while reading answers, in answers of the largest size: 1 GiB by default. */
export const MEMORY_BUDGET_ANSWERS = 16;
/** The run's memory is looked at once per MiB of answers read, not for every chunk. */
const MEMORY_CHECK_BYTES = 1024 * 1024;

const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'UND_ERR_CONNECT_TIMEOUT',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'ERR_TLS_HANDSHAKE_TIMEOUT',
]);

/** Certificate checks that failed (OpenSSL's names, as Node reports them). */
const CERTIFICATE_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_DECRYPT_CERT_SIGNATURE',
  'UNABLE_TO_DECODE_ISSUER_PUBLIC_KEY',
  'CERT_SIGNATURE_FAILURE',
  'CERT_NOT_YET_VALID',
  'CERT_HAS_EXPIRED',
  'ERROR_IN_CERT_NOT_BEFORE_FIELD',
  'ERROR_IN_CERT_NOT_AFTER_FIELD',
  'CERT_CHAIN_TOO_LONG',
  'CERT_REVOKED',
  'INVALID_CA',
  'PATH_LENGTH_EXCEEDED',
  'INVALID_PURPOSE',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'HOSTNAME_MISMATCH',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** Requests refused before a byte was written: a header value or path they cannot carry. */
const UNSENDABLE_CODES = new Set([
  'UND_ERR_INVALID_ARG',
  'ERR_INVALID_CHAR',
  'ERR_INVALID_HTTP_TOKEN',
  'ERR_HTTP_INVALID_HEADER_VALUE',
  'ERR_UNESCAPED_CHARACTERS',
]);

/**
 * Why a request was never sent and asking again would change nothing: the service's TLS
 * certificate was refused or the handshake failed, or the request could not be written. For
 * a person, with a next step; undefined for any other fault.
 */
function unsendable(code: string, err: Error, origin: string): { why: string; hint: string } | undefined {
  if (CERTIFICATE_CODES.has(code))
    return {
      // Node's reason alone ("self-signed certificate"): newer Nodes add advice of their own after a `;`.
      why: `the TLS certificate of ${origin} is not trusted: ${err.message.split(';')[0]}; nothing was sent`,
      hint: 'a certificate of a private certificate authority is trusted with NODE_EXTRA_CA_CERTS=FILE; recent Nodes also read the system store with NODE_OPTIONS=--use-system-ca',
    };
  if (/^ERR_(SSL|TLS|OSSL)_/.test(code) && !NOT_SENT_CODES.has(code))
    return {
      why: `the TLS handshake with ${origin} failed: ${code
        .replace(/^ERR_(SSL|TLS|OSSL)_/, '')
        .toLowerCase()
        .replace(/_/g, ' ')}; nothing was sent`,
      hint:
        code === 'ERR_SSL_WRONG_VERSION_NUMBER'
          ? 'the service may answer plain HTTP there: check the address, --base-url or EDP_BASE_URL'
          : 'check the service address, --base-url or EDP_BASE_URL',
    };
  if (UNSENDABLE_CODES.has(code))
    return {
      why: `the request could not be written: ${err.message}; nothing was sent`,
      hint: 'a header value holds a character HTTP cannot carry (a line break, a control character)',
    };
  return undefined;
}

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
  /** The path the service is mounted at, '' at the root: every request goes under it. */
  private readonly prefix: string;
  /** undici's Agent, or its ProxyAgent when the service is reached through a proxy. */
  private readonly agent: Dispatcher;
  private readonly undici: Undici;
  /** The proxy every request goes through, decided once for the run (the service has one address). */
  readonly proxy: ProxyRoute | undefined;
  /** The request log, each entry naming the proxy when there is one. */
  private readonly log: ((entry: RequestLogEntry) => void) | undefined;
  private readonly policy: RetryPolicy;
  private readonly budget: RetryBudget;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /**
   * When the service asks to slow down (503 or 429 with Retry-After), no request of this run
   * is sent before this time (ms since the epoch): a fleet waits as one, rather than each of
   * its workspaces retrying on its own.
   */
  private pausedUntil = 0;
  /** The service's time (ms since the epoch) by the Date header of its last answer, if it sent one. */
  serviceDate: number | undefined;
  /** Whether a request that may change something at the service has been sent (or begun) in this run. */
  changesSent = false;
  /**
   * Aborted when the run stops (Ctrl-C), the client is closed, or the run's answers pass their
   * budget: requests under way end, waits end, and nothing is sent or repeated afterwards.
   */
  private readonly stop = new AbortController();
  /** The requests under way, each with its own controller: the timeout and `stop` abort it. */
  private readonly inflight = new Set<AbortController>();
  private readonly onRunAbort = () => this.halt(this.opts.signal!.reason);
  /** Bytes of answers read and not yet parsed, every request together. */
  private reading = 0;
  /** Bytes of answers read since the run's memory was last looked at. */
  private readSinceCheck = 0;
  /** The memory in use when it was first looked at, and how far it may grow (both bytes). */
  private memory: { start: number; budget: number } | undefined;

  constructor(private readonly opts: ClientOptions) {
    this.base = new URL(opts.baseUrl);
    this.baseUrl = opts.baseUrl.replace(/\/+$/, '');
    this.prefix = basePathOf(this.base);
    this.undici = loadUndici();
    // Before any connection: a proxy variable that cannot be used is bad input (exit 2).
    this.proxy = proxyFor(this.base, opts.env ?? {});
    const pool = { keepAliveTimeout: 10_000, connections: opts.connections ?? 32 };
    // Through a proxy, every request (http:// services too) goes inside a CONNECT tunnel: the
    // proxy sees the service's host and port, never a request line or a header (credentials,
    // tokens). Said here rather than left to undici's default: with proxyTunnel: false an
    // http:// request would go to the proxy as it is, headers and all.
    this.agent = this.proxy
      ? new (this.undici.proxyAgent())({ ...pool, uri: this.proxy.uri, proxyTunnel: true })
      : new this.undici.Agent(pool);
    const via = this.proxy?.shown;
    this.log = opts.log && via ? (entry) => opts.log!({ ...entry, via }) : opts.log;
    this.policy = opts.policy ?? defaultRetryPolicy;
    this.budget = opts.budget ?? new RetryBudget(50);
    this.sleep = opts.sleep ?? sleep;
    // One listener on the run's signal for the client's life, however many requests wait on it.
    if (opts.signal?.aborted) this.halt(opts.signal.reason);
    else opts.signal?.addEventListener('abort', this.onRunAbort, { once: true });
  }

  async close(): Promise<void> {
    // The run is over: a request still under way (a sibling of a workspace that failed) ends
    // here quietly, without a retry or a notice of one.
    this.halt(Object.assign(new Error('the run has ended'), { name: 'AbortError' }));
    this.opts.signal?.removeEventListener('abort', this.onRunAbort);
    // Pending keep-alive sockets would hold the process open: drop them.
    await this.agent.destroy();
  }

  /** Stops every request of the run with `reason`: those under way, those waiting, and any later one. */
  private halt(reason: unknown): void {
    if (this.stop.signal.aborted) return;
    this.stop.abort(reason);
    for (const request of this.inflight) request.abort(reason);
  }

  /** A read whose answer must be an object with `fields` (or `expect`, for lists). */
  get<T = unknown>(path: string, auth: AuthKind, workspaceId?: string, expect: Expect = [], query?: Query): Promise<T> {
    return this.request<T>({ method: 'GET', path, auth, workspaceId, query, expect }).then((r) => r.data);
  }

  /**
   * One request, repeated by the contract's rules. Made for the read of a wait (util/poll.ts,
   * readLimits), it ends at that read's bound: no attempt starts after it, a pause before a
   * repeat ends there, and an answer still awaited is given up (ReadLimitError), whatever
   * --timeout and the attempts left would allow.
   */
  async request<T = unknown>(spec: RequestSpec): Promise<ApiResponse<T>> {
    const limit = readLimits.getStore();
    const repeatable = spec.repeatable ?? spec.method === 'GET';
    const target = withQuery(spec.path, spec.query);
    // Before any credential is looked up: a path that resolves elsewhere is never sent.
    this.urlOf(spec.method, target);
    if (spec.method !== 'GET' && !spec.changesNothing) this.changesSent = true;
    let renewed = false;
    for (let attempt = 1; ; attempt++) {
      if (this.stop.signal.aborted) throw this.stop.signal.reason;
      const passed = limit && readLimitPassed(limit);
      if (passed) throw passed;
      const paused = this.pausedUntil - Date.now();
      if (paused > 0) await this.pause(paused, limit);
      // Credentials problems (none configured, token issuance refused) are not network faults.
      const authHeaders = await this.opts.auth.headers(spec.auth, spec.workspaceId, this);
      const started = process.hrtime.bigint();
      let outcome: Outcome;
      try {
        const res = await this.send(spec, target, authHeaders, limit?.signal);
        const ms = elapsedMs(started);
        this.log?.({ method: spec.method, path: target, status: res.status, ms, traceId: res.traceId, attempt });
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
        // An answer that arrived as the run stopped is not asked for again.
        if (decision.retry && !this.stop.signal.aborted && this.budget.take()) {
          this.log?.({
            method: spec.method,
            path: target,
            status: res.status,
            ms,
            traceId: res.traceId,
            attempt,
            note: `retrying in ${decision.delayMs} ms`,
          });
          if (limit) limit.failure = error;
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
          if (!slowDown) await this.pause(decision.delayMs, limit);
          continue;
        }
        if (res.status === 503 && !repeatable)
          throw new OutcomeUnknownError(spec.method, target, error, this.base.origin);
        throw error;
      } catch (err) {
        if (err instanceof ApiError || err instanceof OutcomeUnknownError) throw err;
        // Stopped (Ctrl-C, the run over, its answers past their budget): no retry, no notice.
        if (this.stop.signal.aborted) throw err;
        const ms = elapsedMs(started);
        // The read of a wait given up at its bound: no retry, no notice.
        if (limit?.signal.aborted) {
          this.log?.({
            method: spec.method,
            path: target,
            status: 'error',
            ms,
            traceId: undefined,
            attempt,
            note: 'given up: the wait it was made for reached its bound',
          });
          throw limit.signal.reason;
        }
        // Through a proxy, a fault of the proxy's is told as its own, naming it: nothing reached the service.
        const fault = this.proxy && proxyFault(err, this.proxy, this.base);
        const failure: unknown = fault ?? err;
        const code = (failure as { code?: string }).code;
        const sent = !fault && !(code && NOT_SENT_CODES.has(code));
        this.log?.({
          method: spec.method,
          path: target,
          status: 'error',
          ms,
          traceId: undefined,
          attempt,
          note: String(code ?? (err as Error).name),
        });
        // The proxy refused the tunnel (403, 407): asking again would meet the same refusal.
        if (fault && !fault.retryable) throw withHint(new NetworkError(spec.method, target, fault), fault.hint);
        // Refused before anything was written (a certificate, a header): the same again would fail the same way.
        const never = !fault && typeof code === 'string' ? unsendable(code, err as Error, this.base.origin) : undefined;
        if (never !== undefined)
          throw withHint(
            new NetworkError(spec.method, target, Object.assign(new Error(never.why), { code, cause: err })),
            never.hint,
          );
        outcome = { kind: 'network', sent };
        const decision = decideRetry(this.policy, outcome, attempt, repeatable);
        if (decision.retry && this.budget.take()) {
          if (limit) limit.failure = new NetworkError(spec.method, target, failure, this.base.origin);
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
          await this.pause(decision.delayMs, limit);
          continue;
        }
        if (!repeatable && sent) throw new OutcomeUnknownError(spec.method, target, err, this.base.origin);
        const error = new NetworkError(spec.method, target, failure, this.base.origin);
        throw fault ? withHint(error, fault.hint) : error;
      }
    }
  }

  /**
   * A pause before a repeat, ended by the run's stop, and by the bound of the read it is made
   * for: one that would last past that bound lasts until it, then the read is given up.
   */
  private async pause(ms: number, limit: ReadLimit | undefined): Promise<void> {
    if (!limit) return this.sleep(ms, this.stop.signal);
    const signal = AbortSignal.any([this.stop.signal, limit.signal]);
    const left = limit.at - limit.now();
    if (ms < left) return this.sleep(ms, signal);
    await this.sleep(Math.max(0, left), signal);
    throw readLimitPassed(limit) ?? new ReadLimitError();
  }

  /**
   * The address a request goes to, which must be the configured service: its origin, and under
   * its path when it has one (`http://host/edp/`: a path `/api/v3/x` goes to `/edp/api/v3/x`).
   * What is checked is the path exactly as it goes on the request line, dot segments resolved
   * (`/a/..//host/x` is sent as `//host/x`): a path that a URL parser or a proxy reads as
   * another host (`//host`, `/\\host`, `/%5Chost`, `/%2F/host`), one that leaves the service's
   * path, an absolute URL or a paging `next` link pointing elsewhere, is refused before anything
   * is sent, so that credentials only ever go to the service (exit 2).
   */
  private urlOf(method: string, target: string): URL {
    const refuse = (why: string) =>
      new UsageError(
        `refused to send ${method} ${target}: ${why}; requests go only to the configured service, ${this.baseUrl}`,
      );
    if (namesAnotherHost(target) && !/^[a-z][a-z0-9+.-]*:\/\//i.test(target))
      throw refuse('the path names another host');
    let url: URL;
    try {
      // A path is under the service's own path; a link relative to a page, under it too.
      url = target.startsWith('/')
        ? new URL(this.prefix + target, this.base)
        : new URL(target, new URL(`${this.prefix}/`, this.base));
    } catch {
      throw refuse('it is not a path');
    }
    if (url.origin !== this.base.origin) throw refuse(`it resolves to ${url.origin}`);
    if (url.username !== this.base.username || url.password !== this.base.password)
      throw refuse('it carries credentials');
    const problem = sentPathProblem(url.pathname, this.prefix);
    if (problem !== undefined) throw refuse(`${problem} as it would be sent, ${url.pathname}`);
    return url;
  }

  private async send(
    spec: RequestSpec,
    target: string,
    authHeaders: Record<string, string>,
    bound: AbortSignal | undefined,
  ): Promise<Received> {
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
    // A controller of its own, which the timeout and `stop` abort: a signal the whole run
    // shares would gather a listener per request under way.
    const controller = new AbortController();
    const timer = setTimeout(
      // The --timeout it ran out of goes with it, for the advice on the error.
      () =>
        controller.abort(
          Object.assign(new DOMException('The operation was aborted due to timeout', 'TimeoutError'), {
            timeoutMs: this.opts.timeoutMs,
          }),
        ),
      this.opts.timeoutMs,
    );
    this.inflight.add(controller);
    // The bound of the wait's read it is made for ends it too.
    const onBound = () => controller.abort(bound!.reason);
    bound?.addEventListener('abort', onBound, { once: true });
    // The bytes of this answer counted among those the run is reading, given back once parsed.
    const lease = { bytes: 0 };
    try {
      if (this.stop.signal.aborted) throw this.stop.signal.reason;
      if (bound?.aborted) throw bound.reason;
      const res = await this.undici.request.call(this.agent, {
        origin: url.origin,
        path: url.pathname + url.search,
        method: spec.method,
        headers,
        body,
        signal: controller.signal,
      });
      const resHeaders = res.headers as Record<string, string | string[] | undefined>;
      const traceId = header(resHeaders, 'x-im-trace-id');
      const date = Date.parse(header(resHeaders, 'date') ?? '');
      if (!Number.isNaN(date)) this.serviceDate = date;
      const text = await this.readBody(res, spec.method, target, traceId, lease);
      const contentType = header(resHeaders, 'content-type') ?? '';
      let data: unknown = undefined;
      let json = false;
      if (text.length > 0) {
        if (contentType.includes('json') || /^\s*[[{]/.test(text)) {
          try {
            // A key given twice would be read last-wins (`"results":[…],"results":[]`, an empty list).
            data = parseJson(text, { uniqueKeys: true });
            json = true;
          } catch (err) {
            if (err instanceof JsonTooDeepError || err instanceof JsonDuplicateKeyError)
              throw new ApiError({
                status: res.statusCode,
                code: 'unexpected_response',
                message:
                  err instanceof JsonTooDeepError
                    ? `the answer to ${spec.method} ${target} (${res.statusCode}) is ${err.message}`
                    : `unexpected answer to ${spec.method} ${target} (${res.statusCode}): ${err.message}`,
                traceId,
                method: spec.method,
                path: target,
                details:
                  err instanceof JsonDuplicateKeyError
                    ? { problem: err.message, key: err.key }
                    : { problem: err.message },
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
    } finally {
      clearTimeout(timer);
      bound?.removeEventListener('abort', onBound);
      this.inflight.delete(controller);
      this.reading -= lease.bytes;
    }
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
    lease: { bytes: number },
  ): Promise<string> {
    const max = this.opts.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    const atOnce = this.opts.answerBudgetBytes ?? ANSWER_BUDGET_ANSWERS * max;
    /** The run's answers would pass a budget: the run stops, every request with it. */
    const overBudget = (what: string, limit: number) => {
      res.body.destroy();
      const err = new ApiError({
        status: res.statusCode,
        code: 'response_too_large',
        message: `reading the answer to ${method} ${target}, ${what} ${formatBytes(limit)}, the most one run of edp takes (EDP_MAX_RESPONSE_MB sets it); the run stops here rather than exhaust memory`,
        traceId,
        method,
        path: target,
        details: { limit_bytes: limit, run: true },
      });
      this.halt(err);
      return err;
    };
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
    const reading = 'the answers being read at once (every page and workspace of the run) would pass';
    if (Number.isFinite(announced) && this.reading + announced > atOnce) throw overBudget(reading, atOnce);
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body) {
      size += chunk.length;
      if (size > max) throw tooLarge();
      if (this.reading + chunk.length > atOnce) throw overBudget(reading, atOnce);
      this.reading += chunk.length;
      lease.bytes += chunk.length;
      chunks.push(chunk);
      this.readSinceCheck += chunk.length;
      if (this.readSinceCheck >= MEMORY_CHECK_BYTES) {
        this.readSinceCheck = 0;
        const memory = await this.memoryBudget(max);
        const inUse = this.memoryInUse();
        // Garbage from before the run, collected since, would hide what the run has taken: the
        // run's growth is counted from the least memory seen in use.
        memory.start = Math.min(memory.start, inUse);
        if (inUse - memory.start > memory.budget)
          throw overBudget('the memory the run has taken while reading answers has passed', memory.budget);
      }
    }
    return Buffer.concat(chunks, size).toString('utf8');
  }

  /**
   * How far the run's memory may grow from where it was when first looked at (once the run had
   * read a MiB of answers: a run of small answers never looks). Below three quarters of V8's
   * heap limit, so that the run stops with an error rather than V8 aborting it.
   */
  private async memoryBudget(max: number): Promise<{ start: number; budget: number }> {
    if (this.memory) return this.memory;
    const { getHeapStatistics } = await import('node:v8');
    const start = this.memoryInUse();
    const wanted = this.opts.memoryBudgetBytes ?? MEMORY_BUDGET_ANSWERS * max;
    const room = Math.max(0, getHeapStatistics().heap_size_limit * 0.75 - start);
    this.memory ??= { start, budget: Math.min(wanted, Math.floor(room)) };
    return this.memory;
  }

  /** V8's heap in use and the buffers outside it, in bytes. */
  private memoryInUse(): number {
    if (this.opts.memoryInUse) return this.opts.memoryInUse();
    const { heapUsed, external } = process.memoryUsage();
    return heapUsed + external;
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
  const mib = 1024 * 1024;
  if (n % mib === 0) return `${n / mib} MiB`;
  return n >= mib ? `${(n / mib).toFixed(1)} MiB` : `${n} bytes`;
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
