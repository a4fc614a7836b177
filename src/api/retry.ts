/**
 * When to repeat a request. Pure, so the rules are unit-tested on their own.
 *
 * After a 503 wait (Retry-After, 30 s by default) and repeat reads; writes are outcome-unknown and
 * must be re-read first, except the two codes that guarantee nothing was saved
 * (docs/contract-rules.md, Retries). Network faults and 502/504 on reads are repeated with capped,
 * jittered backoff.
 */

export interface RetryPolicy {
  /** Attempts per request, the first included. */
  maxAttempts: number;
  /** Backoff for network faults: full jitter between 0 and min(cap, base * 2^n). */
  baseDelayMs: number;
  maxDelayMs: number;
  /** Longest Retry-After honoured; a larger value is capped so one answer cannot stall a run. */
  maxRetryAfterMs: number;
  /** Retry-After assumed when a 503 carries none (the contract says 30 s). */
  defaultRetryAfterMs: number;
}

export const defaultRetryPolicy: RetryPolicy = {
  maxAttempts: 4,
  baseDelayMs: 250,
  maxDelayMs: 4_000,
  maxRetryAfterMs: 60_000,
  defaultRetryAfterMs: 30_000,
};

/** 503 codes after which nothing was saved (docs/contract-rules.md, Retries rule 4): a write may be repeated. */
export const NOTHING_SAVED_CODES = new Set(['account_check_unavailable', 'data_table_reservation_failed']);

export type Outcome =
  | { kind: 'status'; status: number; code?: string | undefined; retryAfter?: string | undefined }
  /** sent: whether the request may have reached the service (false for a refused connection). */
  | { kind: 'network'; sent: boolean };

export type Decision = { retry: false } | { retry: true; delayMs: number };

/** Seconds or an HTTP date, as RFC 9110 allows. */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined || value === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

export function backoffDelay(policy: RetryPolicy, attempt: number, random: () => number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.floor(random() * ceiling);
}

/**
 * attempt: the number of the attempt that just ended (1 for the first).
 * repeatable: the request may be sent twice without harm (reads, and writes the caller marks so).
 */
export function decideRetry(
  policy: RetryPolicy,
  outcome: Outcome,
  attempt: number,
  repeatable: boolean,
  random: () => number = Math.random,
  nowMs: number = Date.now(),
): Decision {
  if (attempt >= policy.maxAttempts) return { retry: false };
  if (outcome.kind === 'network') {
    if (!repeatable && outcome.sent) return { retry: false };
    return { retry: true, delayMs: backoffDelay(policy, attempt, random) };
  }
  const { status } = outcome;
  // Too many requests: refused before anything was done (RFC 6585), so any method may be
  // repeated; the contract does not show the rate limits' headers, so Retry-After is honoured
  // when given and backoff used otherwise.
  if (status === 429) {
    const wait = parseRetryAfter(outcome.retryAfter, nowMs) ?? backoffDelay(policy, attempt, random);
    return { retry: true, delayMs: Math.min(wait, policy.maxRetryAfterMs) };
  }
  if (status === 503) {
    if (!repeatable && !(outcome.code && NOTHING_SAVED_CODES.has(outcome.code))) return { retry: false };
    const wait = parseRetryAfter(outcome.retryAfter, nowMs) ?? policy.defaultRetryAfterMs;
    return { retry: true, delayMs: Math.min(wait, policy.maxRetryAfterMs) };
  }
  if ((status === 502 || status === 504) && repeatable) {
    return { retry: true, delayMs: backoffDelay(policy, attempt, random) };
  }
  return { retry: false };
}

/** A shared allowance of retries for the whole process, so a bad day cannot multiply traffic without end. */
export class RetryBudget {
  private left: number;
  constructor(total: number) {
    this.left = total;
  }
  take(): boolean {
    if (this.left <= 0) return false;
    this.left -= 1;
    return true;
  }
  get remaining(): number {
    return this.left;
  }
}

/** What a person is told before a request is repeated (progress and notes go to stderr, never into the data on stdout). */
export interface RetryNotice {
  method: string;
  path: string;
  /** the status that was answered, or the network fault's code (ECONNRESET, UND_ERR_SOCKET, …) */
  cause:
    { kind: 'status'; status: number; code?: string | undefined } | { kind: 'network'; code: string; sent: boolean };
  delayMs: number;
  /** the attempt about to be made (2 for the first repeat) */
  nextAttempt: number;
  maxAttempts: number;
  /** the service asked to slow down (503, 429): every request of the run waits, not only this one */
  everyone?: boolean | undefined;
}

/** 30s, 1.5s, 250ms: short waits keep their precision, long ones are rounded to seconds. */
export function delayText(ms: number): string {
  if (ms < 1000) return `${ms}ms`;
  if (ms < 10_000) return `${Math.round(ms / 100) / 10}s`;
  return `${Math.round(ms / 1000)}s`;
}

const NETWORK_WORDS: Record<string, string> = {
  ECONNRESET: 'connection reset',
  UND_ERR_SOCKET: 'connection closed before the answer',
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'name lookup failed',
  ETIMEDOUT: 'connection timed out',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
  TimeoutError: 'no answer within --timeout',
  UND_ERR_HEADERS_TIMEOUT: 'no answer within --timeout',
  EPIPE: 'connection closed',
  ENETUNREACH: 'network unreachable',
  EHOSTUNREACH: 'host unreachable',
  ERR_TLS_HANDSHAKE_TIMEOUT: 'TLS handshake timed out',
  // The proxy (HTTPS_PROXY, HTTP_PROXY) could not reach the service: src/http/proxy.ts.
  PROXY_TUNNEL_REFUSED: 'the proxy could not open a tunnel to the service',
};

/**
 * One line per repeat: `service busy (503); retrying in 30s, attempt 2 of 4 (GET /api/v3/workspaces)`. Codes the tool
 * does not know are shown as they are.
 */
export function retryNoticeText(n: RetryNotice): string {
  let why: string;
  if (n.cause.kind === 'status') {
    const { status, code } = n.cause;
    const label =
      status === 429
        ? 'rate limited'
        : status === 503
          ? 'service busy'
          : status === 502
            ? 'bad gateway'
            : status === 504
              ? 'gateway timeout'
              : 'service fault';
    why = `${label} (${status}${code && code !== 'service_unavailable' ? `, ${code}` : ''})`;
  } else {
    const words = NETWORK_WORDS[n.cause.code];
    why = words ? `${words} (${n.cause.code})` : `network error (${n.cause.code})`;
  }
  if (n.everyone)
    return `${why}; pausing every request for ${delayText(n.delayMs)}, then attempt ${n.nextAttempt} of ${n.maxAttempts} (${n.method} ${n.path})`;
  return `${why}; retrying in ${delayText(n.delayMs)}, attempt ${n.nextAttempt} of ${n.maxAttempts} (${n.method} ${n.path})`;
}
