import type { Dispatcher } from 'undici';
import type { AuthKind, Method } from '../contract/operations.js';
import { loadUndici, type Undici } from '../http/undici.js';
import { proxyFault, proxyFor, type ProxyEnvironment, type ProxyRoute } from '../http/proxy.js';
import { ApiError, NetworkError, OutcomeUnknownError, UsageError, withHint, type ProxyError } from '../errors.js';
import { JsonDuplicateKeyError, JsonTooDeepError, parseJson, stringifyJson } from '../util/json.js';
import { defaultExpect, shapeProblem, type Answer, type Expect } from './shape.js';
import { sleep } from '../util/sleep.js';
import { ReadLimitError, readLimitPassed, readLimits, type ReadLimit } from '../util/poll.js';
import { apiErrorFromResponse, header, unexpectedResponse } from './error-body.js';
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

/** One request across its attempts. */
interface Exchange {
  spec: RequestSpec;
  /** the path and query as sent */
  target: string;
  repeatable: boolean;
  /** the bound of the wait's read it is made for */
  limit: ReadLimit | undefined;
  /** whether a fresh token has been asked for after a 401 (once per request) */
  renewed: boolean;
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
/**
 * The connections a run keeps to the service at most. What a run has in flight is bounded by
 * its own design: a fleet command works in up to 16 workspaces at once (`auto`), and one
 * workspace's plan reads up to six lists at once, so the pool is wide enough for them all and
 * never becomes a second, hidden limit (with 32, a plan of 500 workspaces at 20 ms of latency
 * took 1.8 times as long). A command on one workspace opens only the few it uses.
 */
export const MAX_CONNECTIONS = 128;
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
    const pool = { keepAliveTimeout: 10_000, connections: opts.connections ?? MAX_CONNECTIONS };
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
    const target = withQuery(spec.path, spec.query);
    // Before any credential is looked up: a path that resolves elsewhere is never sent.
    this.urlOf(spec.method, target);
    if (spec.method !== 'GET' && !spec.changesNothing) this.changesSent = true;
    const exchange: Exchange = {
      spec,
      target,
      repeatable: spec.repeatable ?? spec.method === 'GET',
      limit: readLimits.getStore(),
      renewed: false,
    };
    for (let attempt = 1; ; attempt++) {
      await this.beforeAttempt(exchange.limit);
      // Credentials problems (none configured, token issuance refused) are not network faults.
      const authHeaders = await this.opts.auth.headers(spec.auth, spec.workspaceId, this);
      const started = process.hrtime.bigint();
      // One try around the answer and what is made of it: a fault while renewing a token or
      // pausing before a repeat is judged as the request's own (onFault).
      try {
        const res = await this.send(spec, target, authHeaders, exchange.limit?.signal);
        const next = await this.onAnswer<T>(res, exchange, attempt, elapsedMs(started));
        if (next === 'renewed') attempt--;
        else if (next !== 'again') return next;
      } catch (err) {
        await this.onFault(err, exchange, attempt, elapsedMs(started));
      }
    }
  }

  /** Before each attempt: none once the run has stopped or the read's bound has passed, none during the run's pause. */
  private async beforeAttempt(limit: ReadLimit | undefined): Promise<void> {
    if (this.stop.signal.aborted) throw this.stop.signal.reason;
    const passed = limit && readLimitPassed(limit);
    if (passed) throw passed;
    const paused = this.pausedUntil - Date.now();
    if (paused > 0) await this.pause(paused, limit);
  }

  /**
   * An answer: success (its shape checked), or a refusal, which is repeated when the contract
   * allows it (`again`, after the pause), asked again once with a fresh token after a 401
   * (`renewed`, an attempt not counted), or thrown.
   */
  private async onAnswer<T>(
    res: Received,
    exchange: Exchange,
    attempt: number,
    ms: number,
  ): Promise<ApiResponse<T> | 'again' | 'renewed'> {
    const { spec, target } = exchange;
    this.record(exchange, attempt, ms, res.status, res.traceId);
    if (res.status >= 200 && res.status < 300) {
      if (spec.auth === 'bearer') this.opts.auth.used(spec.workspaceId);
      // Never a silent success or an empty list on an answer the commands cannot read.
      const problem = shapeProblem(res.answer, spec.expect ?? defaultExpect(spec.method));
      if (problem) throw unexpectedResponse(spec.method, target, res, problem);
      const { answer: _answer, ...response } = res;
      return response as ApiResponse<T>;
    }
    const error = apiErrorFromResponse(spec.method, target, res);
    if (res.status === 401 && spec.auth === 'bearer' && !exchange.renewed) {
      // An authentication refusal means nothing was done, so any method may be repeated.
      exchange.renewed = true;
      if (await this.opts.auth.renew(spec.workspaceId, this)) return 'renewed';
    }
    await this.repeatRefused(res, error, exchange, attempt, ms);
    return 'again';
  }

  /** A refusal the contract lets the client ask again: told, paused for, and returned from; any other is thrown. */
  private async repeatRefused(
    res: Received,
    error: ApiError,
    exchange: Exchange,
    attempt: number,
    ms: number,
  ): Promise<void> {
    const { spec, target, limit } = exchange;
    const outcome: Outcome = {
      kind: 'status',
      status: res.status,
      code: error.code,
      retryAfter: header(res.headers, 'retry-after'),
    };
    const decision = decideRetry(this.policy, outcome, attempt, exchange.repeatable);
    // An answer that arrived as the run stopped is not asked for again.
    if (!(decision.retry && !this.stop.signal.aborted && this.budget.take())) {
      if (res.status === 503 && !exchange.repeatable)
        throw new OutcomeUnknownError(spec.method, target, error, this.base.origin);
      throw error;
    }
    this.record(exchange, attempt, ms, res.status, res.traceId, `retrying in ${decision.delayMs} ms`);
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
  }

  /**
   * A request that got no answer (or whose answer could not be read): returns after the pause
   * when the contract lets it be sent again, else throws what the run reports.
   */
  private async onFault(err: unknown, exchange: Exchange, attempt: number, ms: number): Promise<void> {
    const { spec, target, limit } = exchange;
    if (err instanceof ApiError || err instanceof OutcomeUnknownError) throw err;
    // Stopped (Ctrl-C, the run over, its answers past their budget): no retry, no notice.
    if (this.stop.signal.aborted) throw err;
    // The read of a wait given up at its bound: no retry, no notice.
    if (limit?.signal.aborted) {
      this.record(exchange, attempt, ms, 'error', undefined, 'given up: the wait it was made for reached its bound');
      throw limit.signal.reason;
    }
    // Through a proxy, a fault of the proxy's is told as its own, naming it: nothing reached the service.
    const fault = this.proxy && proxyFault(err, this.proxy, this.base);
    const failure: unknown = fault ?? err;
    const code = (failure as { code?: string }).code;
    const sent = !fault && !(code && NOT_SENT_CODES.has(code));
    this.record(exchange, attempt, ms, 'error', undefined, String(code ?? (err as Error).name));
    const final = this.neverRepeated(exchange, err, fault, code);
    if (final) throw final;
    const decision = decideRetry(this.policy, { kind: 'network', sent }, attempt, exchange.repeatable);
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
      return;
    }
    if (!exchange.repeatable && sent) throw new OutcomeUnknownError(spec.method, target, err, this.base.origin);
    const error = new NetworkError(spec.method, target, failure, this.base.origin);
    throw fault ? withHint(error, fault.hint) : error;
  }

  /** A fault that asking again would meet the same way, as the error to throw; undefined for any other. */
  private neverRepeated(
    { spec, target }: Exchange,
    err: unknown,
    fault: ProxyError | undefined,
    code: string | undefined,
  ): Error | undefined {
    // The proxy refused the tunnel (403, 407): asking again would meet the same refusal.
    if (fault && !fault.retryable) return withHint(new NetworkError(spec.method, target, fault), fault.hint);
    // Refused before anything was written (a certificate, a header): the same again would fail the same way.
    const never = !fault && typeof code === 'string' ? unsendable(code, err as Error, this.base.origin) : undefined;
    if (never === undefined) return undefined;
    return withHint(
      new NetworkError(spec.method, target, Object.assign(new Error(never.why), { code, cause: err })),
      never.hint,
    );
  }

  /** One entry of the request log, when the run keeps one. */
  private record(
    { spec, target }: Exchange,
    attempt: number,
    ms: number,
    status: number | 'error',
    traceId: string | undefined,
    note?: string,
  ): void {
    if (!this.log) return;
    const entry: RequestLogEntry = { method: spec.method, path: target, status, ms, traceId, attempt };
    this.log(note === undefined ? entry : { ...entry, note });
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

  /** One attempt: the request written, its answer read, and its body parsed. */
  private async send(
    spec: RequestSpec,
    target: string,
    authHeaders: Record<string, string>,
    bound: AbortSignal | undefined,
  ): Promise<Received> {
    const { headers, body } = this.framed(spec, authHeaders);
    const url = this.urlOf(spec.method, target);
    const underWay = this.underWay(bound);
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
        signal: underWay.signal,
      });
      const resHeaders = res.headers as Record<string, string | string[] | undefined>;
      const traceId = header(resHeaders, 'x-im-trace-id');
      const date = Date.parse(header(resHeaders, 'date') ?? '');
      if (!Number.isNaN(date)) this.serviceDate = date;
      const text = await this.readBody(res, spec.method, target, traceId, lease);
      const contentType = header(resHeaders, 'content-type') ?? '';
      const { data, json } = parseAnswer(text, contentType, {
        status: res.statusCode,
        method: spec.method,
        target,
        traceId,
      });
      return {
        status: res.statusCode,
        headers: resHeaders,
        data,
        traceId,
        answer: { text, data, json, contentType },
      };
    } finally {
      underWay.end();
      this.reading -= lease.bytes;
    }
  }

  /** The request's headers, and its body as JSON text. */
  private framed(
    spec: RequestSpec,
    authHeaders: Record<string, string>,
  ): { headers: Record<string, string>; body: string | undefined } {
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': this.opts.userAgent ?? 'edp',
      ...authHeaders,
    };
    if (spec.body === undefined) return { headers, body: undefined };
    headers['content-type'] = 'application/json';
    return { headers, body: typeof spec.body === 'string' ? spec.body : stringifyJson(spec.body) };
  }

  /**
   * The signal of one attempt under way, which its timeout, the run's stop and the bound of the
   * wait's read it is made for abort; `end` lets go of them once it is over.
   */
  private underWay(bound: AbortSignal | undefined): { signal: AbortSignal; end(): void } {
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
    return {
      signal: controller.signal,
      end: () => {
        clearTimeout(timer);
        bound?.removeEventListener('abort', onBound);
        this.inflight.delete(controller);
      },
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
    lease: { bytes: number },
  ): Promise<string> {
    const max = this.opts.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    const atOnce = this.opts.answerBudgetBytes ?? ANSWER_BUDGET_ANSWERS * max;
    const refused = (message: string, details: Record<string, unknown>) => {
      res.body.destroy();
      return new ApiError({
        status: res.statusCode,
        code: 'response_too_large',
        message,
        traceId,
        method,
        path: target,
        details,
      });
    };
    /** The run's answers would pass a budget: the run stops, every request with it. */
    const overBudget = (what: string, limit: number) => {
      const err = refused(
        `reading the answer to ${method} ${target}, ${what} ${formatBytes(limit)}, the most one run of edp takes (EDP_MAX_RESPONSE_MB sets it); the run stops here rather than exhaust memory`,
        { limit_bytes: limit, run: true },
      );
      this.halt(err);
      return err;
    };
    const tooLarge = () =>
      refused(
        `the answer to ${method} ${target} is larger than ${formatBytes(max)}, the most edp reads (EDP_MAX_RESPONSE_MB sets it)`,
        { limit_bytes: max },
      );
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
      const passed = await this.memoryPassed(chunk.length, max);
      if (passed !== undefined)
        throw overBudget('the memory the run has taken while reading answers has passed', passed);
    }
    return Buffer.concat(chunks, size).toString('utf8');
  }

  /**
   * The run's memory budget when its growth has passed it, looked at once per MiB of answers
   * read (`bytes` more now); undefined while within it.
   */
  private async memoryPassed(bytes: number, max: number): Promise<number | undefined> {
    this.readSinceCheck += bytes;
    if (this.readSinceCheck < MEMORY_CHECK_BYTES) return undefined;
    this.readSinceCheck = 0;
    const memory = await this.memoryBudget(max);
    const inUse = this.memoryInUse();
    // Garbage from before the run, collected since, would hide what the run has taken: the
    // run's growth is counted from the least memory seen in use.
    memory.start = Math.min(memory.start, inUse);
    return inUse - memory.start > memory.budget ? memory.budget : undefined;
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

function formatBytes(n: number): string {
  const mib = 1024 * 1024;
  if (n % mib === 0) return `${n / mib} MiB`;
  return n >= mib ? `${(n / mib).toFixed(1)} MiB` : `${n} bytes`;
}

/**
 * An answer's body: JSON when it says so or looks it, else its text; nothing when empty. JSON
 * nested too deep, or with a key given twice, is an answer the commands cannot read.
 */
function parseAnswer(
  text: string,
  contentType: string,
  of: { status: number; method: string; target: string; traceId: string | undefined },
): { data: unknown; json: boolean } {
  if (text.length === 0) return { data: undefined, json: false };
  if (!contentType.includes('json') && !/^\s*[[{]/.test(text)) return { data: text, json: false };
  try {
    // A key given twice would be read last-wins (`"results":[…],"results":[]`, an empty list).
    return { data: parseJson(text, { uniqueKeys: true }), json: true };
  } catch (err) {
    if (!(err instanceof JsonTooDeepError || err instanceof JsonDuplicateKeyError)) return { data: text, json: false };
    const { status, method, target, traceId } = of;
    throw new ApiError({
      status,
      code: 'unexpected_response',
      message:
        err instanceof JsonTooDeepError
          ? `the answer to ${method} ${target} (${status}) is ${err.message}`
          : `unexpected answer to ${method} ${target} (${status}): ${err.message}`,
      traceId,
      method,
      path: target,
      details: err instanceof JsonDuplicateKeyError ? { problem: err.message, key: err.key } : { problem: err.message },
    });
  }
}
