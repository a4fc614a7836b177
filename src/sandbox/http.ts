import type { FastifyRequest } from 'fastify';
import type { ZodType } from 'zod';
import {
  SandboxError,
  invalidQuery,
  notFound,
  unauthorized,
  validationError,
  forbidden,
  type FieldError,
} from './errors.js';
import type { Store } from './store.js';
import type { User } from './types.js';
import { fieldPath } from '../util/field-path.js';

interface ZodIssueLike {
  code: string;
  path: ReadonlyArray<PropertyKey>;
  message: string;
  input?: unknown;
  minimum?: unknown;
  maximum?: unknown;
  origin?: string;
}

function fieldCode(issue: ZodIssueLike): string {
  // A missing key is `required` whatever check it failed (a custom integer check reports
  // `custom`, not `invalid_type`); a value that is present but wrong is `invalid`.
  if (issue.input === undefined && 'input' in issue && issue.code !== 'unrecognized_keys') return 'required';
  if (
    issue.code === 'too_small' &&
    Number(issue.minimum) === 1 &&
    (issue.origin === 'string' || issue.origin === 'array')
  )
    return 'empty';
  if (issue.code === 'too_big' && issue.origin === 'string') return 'max_length';
  return 'invalid';
}

/** The route parameters of a path with one `:id`. */
export type IdParams = { id: string };

/** The body of a sandbox control: any JSON object, or none. */
export type ControlBody = Record<string, unknown> | undefined;

/** Validates a body with a zod schema; failures become `validation_error` with field paths. */
export function parseBody<T>(schema: ZodType<T>, body: unknown): T {
  // reportInput: zod leaves the offending value out of issues otherwise, and `required` vs
  // `invalid` depends on it.
  const result = schema.safeParse(body === undefined ? {} : body, { reportInput: true });
  if (result.success) return result.data;
  const fields: FieldError[] = (result.error.issues as unknown as ZodIssueLike[]).map((issue) => {
    const code = fieldCode(issue);
    const message =
      code === 'required'
        ? 'This field is required.'
        : code === 'empty'
          ? 'This field may not be empty.'
          : issue.message;
    return { field: fieldPath(issue.path), code, message };
  });
  throw validationError(fields);
}

/** A path id, or 404 when it is not one. */
export function pathId(raw: string): number {
  if (!/^\d{1,15}$/.test(raw)) throw notFound();
  return Number(raw);
}

export function queryOf(request: FastifyRequest): Record<string, string | undefined> {
  return request.query as Record<string, string | undefined>;
}

export function queryBool(request: FastifyRequest, name: string): boolean | undefined {
  const v = queryOf(request)[name];
  if (v === undefined) return undefined;
  if (['true', 'True', '1'].includes(v)) return true;
  if (['false', 'False', '0'].includes(v)) return false;
  throw new SandboxError(400, 'invalid_query_parameter', `"${name}" must be a boolean.`, {
    parameter: name,
    allowed_values: ['true', 'false'],
  });
}

// ---------------------------------------------------------------- authentication

function decodeBasic(header: string | undefined): [string, string] | undefined {
  if (!header?.startsWith('Basic ')) return undefined;
  const text = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
  const i = text.indexOf(':');
  return i < 0 ? undefined : [text.slice(0, i), text.slice(i + 1)];
}

/** Basic authentication with an agency user's credentials. */
export function requireBasic(store: Store, request: FastifyRequest): User {
  const pair = decodeBasic(request.headers.authorization);
  if (!pair) throw unauthorized('Authentication credentials were not provided.');
  const user = store.state.users.find((u) => u.email === pair[0] && u.password === pair[1] && u.is_active);
  if (!user) throw unauthorized('Invalid username/password.');
  return user;
}

export interface BearerAuth {
  workspaceId: number;
  user: User;
  via: 'token' | 'cookie';
}

/**
 * A workspace token (or a cookie session plus X-IM-WORKSPACE-ID). Tokens expire --token-ttl
 * seconds after their last use; each authorized request renews them (docs/contract-rules.md, Authentication 2).
 */
export function requireBearer(store: Store, request: FastifyRequest): BearerAuth {
  const header = request.headers.authorization;
  const now = store.clock.now();
  if (header?.startsWith('Bearer ')) {
    const token = header.slice(7).trim();
    const record = store.state.tokens[token];
    if (!record) throw unauthorized('Invalid token.');
    if (record.last_used_at + store.opts.tokenTtl * 1000 <= now) {
      delete store.state.tokens[token];
      throw unauthorized('Token expired.');
    }
    const user = store.state.users.find((u) => u.id === record.user_id && u.is_active);
    if (!user || !store.workspace(record.workspace_id)) throw unauthorized('Invalid token.');
    record.last_used_at = now;
    return { workspaceId: record.workspace_id, user, via: 'token' };
  }
  const cookie = request.headers.cookie;
  const session = cookie ? /(?:^|;\s*)dts_session_id=([^;]+)/.exec(cookie)?.[1] : undefined;
  if (session) {
    const s = store.state.sessions[session];
    const user = s && store.state.users.find((u) => u.id === s.user_id && u.is_active);
    if (!user) throw unauthorized('Session expired.');
    const wsHeader = request.headers['x-im-workspace-id'];
    const wsId = typeof wsHeader === 'string' && /^\d+$/.test(wsHeader) ? Number(wsHeader) : undefined;
    if (wsId === undefined || !store.workspace(wsId)) throw unauthorized('X-IM-WORKSPACE-ID is missing or unknown.');
    if (!user.is_agency_chief && !user.workspace_ids.includes(wsId)) throw forbidden();
    return { workspaceId: wsId, user, via: 'cookie' };
  }
  throw unauthorized('Authentication credentials were not provided.');
}

// ---------------------------------------------------------------- paging

export interface PageOptions {
  /** v31: bad paging is `400 invalid_query_parameter`; v3: page size capped silently, page past the end `404` */
  mode: 'v3' | 'v31';
  maxPageSize?: number;
  defaultPageSize?: number;
}

export interface PageEnvelope<T> {
  count: number;
  next: string | null;
  previous: string | null;
  results: T[];
}

/**
 * The sandbox's own address (`http://HOST:PORT` it listens on), for the absolute URLs it hands
 * out: `next`/`previous` links, iframe and link URLs. Never the request's Host header, which
 * any caller can set. A wildcard listen address is given as loopback.
 */
export function sandboxBaseUrl(request: FastifyRequest): string {
  const configured = baseUrls.get(request.server);
  if (configured) return configured;
  const address = request.server.server.address();
  if (!address || typeof address === 'string') return 'http://127.0.0.1';
  return addressUrl(address.address, address.port);
}

const baseUrls = new WeakMap<object, string>();

function addressUrl(host: string, port: number): string {
  if (host === '0.0.0.0') host = '127.0.0.1';
  if (host === '::') host = '::1';
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** Records the configured `--host` and the port listened on, as the base of the sandbox's absolute URLs. */
export function setSandboxAddress(app: object, host: string, port: number): void {
  baseUrls.set(app, addressUrl(host, port));
}

/** The request's own path and query with `page` replaced, under the sandbox's address. */
export function pageUrl(request: FastifyRequest, page: number): string {
  const [p, qs] = request.url.split('?');
  const params = new URLSearchParams(qs ?? '');
  params.set('page', String(page));
  return `${sandboxBaseUrl(request)}${p}?${params.toString()}`;
}

/** The contract's paginated envelope, `next`/`previous` as full URLs. Items must already be in `id` order. */
export function paginate<T>(request: FastifyRequest, items: T[], opts: PageOptions): PageEnvelope<T> {
  const q = queryOf(request);
  const max = opts.maxPageSize ?? (opts.mode === 'v31' ? 100 : 1000);
  const def = Math.min(opts.defaultPageSize ?? 100, max);
  let size = def;
  if (q.page_size !== undefined) {
    const n = /^\d+$/.test(q.page_size) ? Number(q.page_size) : NaN;
    if (opts.mode === 'v31') {
      if (!(n >= 1 && n <= max)) throw invalidQuery('page_size', [], `page_size must be between 1 and ${max}.`);
      size = n;
    } else if (n >= 1) {
      size = Math.min(n, max);
    }
  }
  let page = 1;
  if (q.page !== undefined) {
    const n = /^\d+$/.test(q.page) ? Number(q.page) : NaN;
    if (!(n >= 1)) {
      if (opts.mode === 'v31') throw invalidQuery('page', [], 'page must be a positive integer.');
      throw notFound('Invalid page.');
    }
    page = n;
  }
  const lastPage = Math.max(1, Math.ceil(items.length / size));
  if (page > lastPage) {
    if (opts.mode === 'v31') throw invalidQuery('page', [], 'That page contains no results.');
    throw notFound('Invalid page.');
  }
  const start = (page - 1) * size;
  return {
    count: items.length,
    next: page < lastPage ? pageUrl(request, page + 1) : null,
    previous: page > 1 ? pageUrl(request, page - 1) : null,
    results: items.slice(start, start + size),
  };
}

export function byId<T extends { id: number }>(a: T, b: T): number {
  return a.id - b.id;
}
