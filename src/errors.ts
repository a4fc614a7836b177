/** Errors the CLI knows how to present, each with its exit code. */

/**
 * The exit codes, once: `edp --help` shows `code short`, the README's table `code | long` (a
 * test keeps it equal), and `ExitCode` names them for the code.
 */
export const EXIT_CODES = [
  { outcome: 'ok', code: 0, short: 'ok', long: 'success' },
  {
    outcome: 'failure',
    code: 1,
    short: 'service or network fault',
    long: 'service fault or unexpected error (5xx, network, a write whose outcome is unknown)',
  },
  {
    outcome: 'usage',
    code: 2,
    short: 'usage or bad input',
    long: 'usage or bad input: refused locally (nothing sent), a parse error (unknown option, missing argument), or refused by the service with 400',
  },
  { outcome: 'auth', code: 3, short: 'authentication', long: 'authentication failed (401) or no credentials' },
  { outcome: 'permission', code: 4, short: 'permission', long: 'permission denied (403)' },
  {
    outcome: 'notFound',
    code: 5,
    short: 'not found',
    long: "not found (404, 410), and a workspace the agency does not have (the token request's 400)",
  },
  { outcome: 'conflict', code: 6, short: 'conflict', long: "conflict with the resource's state (409)" },
  { outcome: 'buildFailed', code: 7, short: 'build failed', long: 'recipe build ended `failed`' },
  { outcome: 'waitTimeout', code: 8, short: 'wait timed out', long: 'waited past `--wait-timeout`' },
  {
    outcome: 'degraded',
    code: 9,
    short: 'degraded build',
    long: 'build ended `ready_to_work` with `degraded: true` and `--fail-on-degraded` was given',
  },
  {
    outcome: 'changesPending',
    code: 10,
    short: 'plan found changes (--detailed-exitcode)',
    long: '`plan --detailed-exitcode` found changes to make',
  },
  {
    outcome: 'declined',
    code: 11,
    short: 'confirmation declined',
    long: 'a confirmation was declined: a cancel, nothing was changed',
  },
  {
    outcome: 'couldNotCheck',
    code: 12,
    short: 'doctor could not check',
    long: '`doctor` could not make its checks: the service unreachable, the credentials refused or missing',
  },
  {
    outcome: 'interrupted',
    code: 130,
    short: 'interrupted',
    long: 'interrupted (Ctrl-C), also at a prompt (`cancelled`); 143 for SIGTERM and 129 for SIGHUP, after the same clean stop',
  },
  {
    outcome: 'outputClosed',
    code: 141,
    short: 'output closed',
    long: "the output's reader went away (a closed pipe: `head` stopped reading) before all was shown: a command that changed nothing stops there quietly; one that changed something goes on to its end and says so, and what it could not show is lost (a webhook secret: rotate it)",
  },
] as const;

type ExitRow = (typeof EXIT_CODES)[number];

export const ExitCode = Object.fromEntries(EXIT_CODES.map((e) => [e.outcome, e.code])) as {
  readonly [R in ExitRow as R['outcome']]: R['code'];
};

/**
 * `Exit codes: 0 ok, 1 service or network fault, …` for `edp --help`, in lines of at most
 * `width` (the help's width), broken between words; a code stays on the line of its first word.
 */
export function exitCodesHelp(width = 80): string {
  const words = ['Exit', 'codes:'];
  for (const [i, e] of EXIT_CODES.entries()) {
    const [first, ...rest] = `${e.short}${i === EXIT_CODES.length - 1 ? '.' : ','}`.split(' ');
    words.push(`${e.code} ${first}`, ...rest);
  }
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  lines.push(line);
  return lines.join('\n');
}

/** The named outcomes a command can end with; errors.ts alone maps them to numbers. */
export type Outcome = Exclude<
  keyof typeof ExitCode,
  'ok' | 'usage' | 'auth' | 'permission' | 'interrupted' | 'declined'
>;

export interface ApiErrorInit {
  status: number;
  code?: string | undefined;
  message: string;
  details?: Record<string, unknown> | undefined;
  traceId?: string | undefined;
  method?: string | undefined;
  path?: string | undefined;
  body?: unknown;
}

/** An answer of the service outside 2xx, from either error envelope, an HTML page or an empty body. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  readonly details: Record<string, unknown>;
  readonly traceId: string | undefined;
  readonly method: string | undefined;
  readonly path: string | undefined;
  readonly body: unknown;

  constructor(init: ApiErrorInit) {
    super(init.message);
    this.name = 'ApiError';
    this.status = init.status;
    this.code = init.code;
    this.details = init.details ?? {};
    this.traceId = init.traceId;
    this.method = init.method;
    this.path = init.path;
    this.body = init.body;
  }
}

/**
 * `POST /api/v3/token` answered 400 about `workspace_id`: the workspace does not exist or is
 * not this agency's. The service's answer is kept (status 400, its details and trace id); the
 * message says what happened and the exit code is 5, not found, rather than 2: the input was
 * well formed, the thing it names does not exist.
 */
export class UnknownWorkspaceError extends ApiError {
  readonly workspaceId: string;
  /** `where`: where the run named the workspace, and the command that lists them (util/suggest.ts). */
  constructor(workspaceId: string, answer: ApiError, where: { origin: string; list: string }) {
    super({
      status: answer.status,
      code: answer.code,
      message: `workspace ${workspaceId}${where.origin} was not found (or is not in this agency); list workspaces with \`${where.list}\``,
      details: answer.details,
      traceId: answer.traceId,
      method: answer.method,
      path: answer.path,
      body: answer.body,
    });
    this.name = 'UnknownWorkspaceError';
    this.workspaceId = workspaceId;
  }
}

/**
 * The person answered no to a confirmation: a cancel, nothing was sent. Exit 11 (declined),
 * printed without the `error:` label since nothing went wrong; JSON code `not_confirmed`.
 */
export class NotConfirmedError extends Error {
  constructor(message = 'not confirmed; nothing was changed') {
    super(message);
    this.name = 'NotConfirmedError';
  }
}

/** Ctrl-C at a prompt (the prompt library's ExitPromptError): exit 130, printed as `cancelled`. */
export function isPromptInterrupt(err: unknown): boolean {
  return err instanceof Error && err.name === 'ExitPromptError';
}

/** Ctrl-C: the run's abort reason, so that what it ends can tell an interruption from a fault. */
export class InterruptedError extends Error {
  constructor() {
    super('interrupted');
    this.name = 'InterruptedError';
  }
}

/** Attaches a next step to an error (`hint: …` under the error for a person). */
export function withHint<E extends Error>(err: E, hint: string): E {
  return Object.assign(err, { hint });
}

export function hintOf(err: unknown): string | undefined {
  const hint = err instanceof Error ? (err as { hint?: unknown }).hint : undefined;
  return typeof hint === 'string' ? hint : undefined;
}

/** Bad input, refused before anything is sent. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** No credentials to authenticate with (exit 3, like a 401). */
export class AuthRequiredError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AuthRequiredError';
  }
}

/**
 * A write whose outcome is unknown: the connection dropped after the request left, or the
 * service answered 503. The service's rule: re-read before repeating (docs/contract-rules.md, Retries 3).
 */
export class OutcomeUnknownError extends Error {
  readonly method: string;
  readonly path: string;
  override readonly cause: unknown;
  constructor(method: string, path: string, cause: unknown, address?: string) {
    const why =
      cause instanceof ApiError ? `the service answered ${cause.status}` : describeNetworkError(cause, address);
    super(
      `${method} ${path}: outcome unknown (${why}); the change may or may not have been applied, re-read before repeating it`,
    );
    this.name = 'OutcomeUnknownError';
    this.method = method;
    this.path = path;
    this.cause = cause;
  }
  get traceId(): string | undefined {
    return this.cause instanceof ApiError ? this.cause.traceId : undefined;
  }
}

/** The service could not be reached or the answer did not arrive. */
export class NetworkError extends Error {
  readonly method: string;
  readonly path: string;
  override readonly cause: unknown;
  constructor(method: string, path: string, cause: unknown, address?: string) {
    super(`${method} ${path}: ${describeNetworkError(cause, address)}`);
    this.name = 'NetworkError';
    this.method = method;
    this.path = path;
    this.cause = cause;
  }
}

/**
 * The proxy requests go through (HTTPS_PROXY, HTTP_PROXY: src/http/proxy.ts) could not be
 * reached or refused the tunnel to the service: nothing reached the service. The message names
 * the proxy by scheme, host and port, never with the credentials its URL may carry.
 */
export class ProxyError extends Error {
  readonly code: string;
  /** the proxy's answer to CONNECT, when it refused the tunnel */
  readonly status: number | undefined;
  /** asking again may cure it: the proxy was unreachable, or could not reach the service */
  readonly retryable: boolean;
  readonly hint: string;
  constructor(opts: {
    message: string;
    code: string;
    status?: number;
    retryable: boolean;
    hint: string;
    cause: unknown;
  }) {
    super(opts.message, { cause: opts.cause });
    this.name = 'ProxyError';
    this.code = opts.code;
    this.status = opts.status;
    this.retryable = opts.retryable;
    this.hint = opts.hint;
  }
}

/**
 * A command ended with a named outcome (build failed, wait timed out, degraded, changes
 * pending…); `exitCodeFor` turns the name into the exit code. A `silent` outcome prints
 * nothing: the command has already reported it (a plan with changes, doctor's findings).
 */
export class ExitError extends Error {
  readonly outcome: Outcome;
  readonly silent: boolean;
  constructor(outcome: Outcome, message: string, opts: { silent?: boolean } = {}) {
    super(message);
    this.name = 'ExitError';
    this.outcome = outcome;
    this.silent = opts.silent ?? false;
  }
  get exitCode(): number {
    return ExitCode[this.outcome];
  }
}

/**
 * Several things failed (workspaces of a fleet, builds of a status check), each already
 * reported: the exit code is theirs when they all share one, otherwise 1.
 */
export class ManyFailures extends Error {
  readonly causes: unknown[];
  constructor(causes: unknown[], message = `${causes.length} failed`) {
    super(message);
    this.name = 'ManyFailures';
    this.causes = causes;
  }
}

/**
 * Why a request got no answer, for a person. `address` is the service's origin (never its
 * credentials): a refused connection or an unknown host names it, so that a wrong --base-url
 * shows at once.
 */
export function describeNetworkError(cause: unknown, address?: string): string {
  if (cause instanceof ProxyError) return cause.message;
  if (cause instanceof Error) {
    const code = (cause as { code?: string }).code;
    if (cause.name === 'TimeoutError' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
      return 'timed out waiting for the service (see --timeout)';
    }
    if (code === 'ECONNREFUSED')
      return address
        ? `connection refused by ${address}: is the service running there?`
        : 'connection refused (is the service running at this address?)';
    if (code === 'ENOTFOUND') return address ? `host not found: ${address}` : 'host not found';
    if (code === 'UND_ERR_SOCKET' || code === 'ECONNRESET')
      return 'the connection was dropped before the answer arrived';
    return code ? `${cause.message} (${code})` : cause.message;
  }
  return String(cause);
}

/** The tool's codes for an answer it could not read (not the service's own codes). */
export const UNREADABLE_ANSWER_CODES = new Set(['unexpected_response', 'response_too_large']);

export function exitCodeFor(err: unknown): number {
  if (err instanceof UnknownWorkspaceError) return ExitCode.notFound;
  // An answer the tool could not read is a service fault whatever its status.
  if (err instanceof ApiError && UNREADABLE_ANSWER_CODES.has(err.code ?? '')) return ExitCode.failure;
  if (err instanceof ApiError) return exitCodeForStatus(err.status);
  if (err instanceof NotConfirmedError) return ExitCode.declined;
  if (err instanceof ManyFailures) return exitCodeForAll(err.causes);
  if (err instanceof UsageError) return ExitCode.usage;
  if (err instanceof AuthRequiredError) return ExitCode.auth;
  if (err instanceof ExitError) return err.exitCode;
  if (err instanceof Error && err.name === 'InterruptedError') return ExitCode.interrupted;
  // Ctrl-C at a prompt: the prompt library reports it as its own error.
  if (isPromptInterrupt(err)) return ExitCode.interrupted;
  return ExitCode.failure;
}

/** One code for several failures: theirs when they all share it, otherwise 1; 0 for none. */
export function exitCodeForAll(causes: unknown[]): number {
  const codes = new Set(causes.map(exitCodeFor));
  return codes.size === 0 ? ExitCode.ok : codes.size === 1 ? [...codes][0]! : ExitCode.failure;
}

/** Whether the error was already reported by the command that raised it. */
export function isSilent(err: unknown): boolean {
  return (err instanceof ExitError && err.silent) || err instanceof ManyFailures;
}

export function exitCodeForStatus(status: number): number {
  if (status === 401) return ExitCode.auth;
  if (status === 403) return ExitCode.permission;
  if (status === 404 || status === 410) return ExitCode.notFound;
  if (status === 409) return ExitCode.conflict;
  if (status === 429) return ExitCode.failure;
  if (status >= 400 && status < 500) return ExitCode.usage;
  return ExitCode.failure;
}
