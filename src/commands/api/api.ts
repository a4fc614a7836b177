import { suggest } from '../../util/suggest.js';
import type { Context } from '../../context.js';
import { ApiError, UsageError, withHint } from '../../errors.js';
import { didYouMean } from '../../util/did-you-mean.js';
import { namesAnotherHost, normalisedPath, sentPathProblem, type Query } from '../../api/path.js';
import { OPERATIONS, pathPattern, type AuthKind, type Method } from '../../contract/operations.js';
import { LosslessNumber } from '../../util/json.js';
import { parseJsonDocument, readSource } from '../../util/document.js';
import { parseChoice } from '../../util/validate.js';
import { limitOf } from '../shared/options.js';
import type { ApiOptions } from './command.js';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/**
 * The authentication of the operation a path names (docs/contract-rules.md, Authentication), from
 * the registry, told from the path as it will be sent (normalisedPath), its escapes read as the
 * service reads them: the operation of that method and path, else of that path, else Basic when
 * every operation under the path's first segment is an agency one (`/api/v3/workspaces/…`,
 * `/api/v3/roles/…`), else Bearer.
 */
export function defaultAuthFor(path: string, method: Method): AuthKind {
  const p = decoded(path.split('?')[0]!);
  const matching = OPERATIONS.filter((o) => pathPattern(o.path).test(p));
  const op = matching.find((o) => o.method === method) ?? matching[0];
  if (op) return op.auth;
  const head = p.split('/').slice(0, 4).join('/');
  const under = OPERATIONS.filter((o) => o.path.split('/').slice(0, 4).join('/') === head);
  return under.length > 0 && under.every((o) => o.auth === 'basic') ? 'basic' : 'bearer';
}

/**
 * The path a redirect answer names on the same service (its origin, under its base path);
 * undefined for any other answer or place.
 */
function canonicalPath(err: unknown, baseUrl: string): string | undefined {
  if (!(err instanceof ApiError) || err.code !== 'redirect' || typeof err.details.location !== 'string')
    return undefined;
  const base = new URL(baseUrl);
  const to = new URL(err.details.location, base);
  const prefix = base.pathname.replace(/\/+$/, '');
  if (to.origin !== base.origin || (prefix !== '' && !to.pathname.startsWith(`${prefix}/`))) return undefined;
  return to.pathname.slice(prefix.length);
}

/**
 * For a path no operation of the contract has: says so, with the nearest operation paths (each
 * with the given path's own ids in its parameters); undefined for a path of an operation.
 */
export function unknownPathHint(path: string): string | undefined {
  const p = decoded(path.split('?')[0]!);
  if (OPERATIONS.some((o) => pathPattern(o.path).test(p))) return undefined;
  const given = p.split('/');
  const candidates = OPERATIONS.map((o) =>
    o.path
      .split('/')
      .map((part, i) => (part.startsWith(':') ? (given[i] ?? part) : part))
      .join('/'),
  );
  // A path with fewer segments than an operation's leaves its parameters unfilled: not offered.
  const near = didYouMean(
    p,
    candidates.filter((c) => !c.includes('/:')),
  );
  return `no operation of the contract has the path ${p}${near ? `; ${near}` : ''}`;
}

/** The path as the service reads it: escapes decoded, dot segments resolved. */
function decoded(path: string): string {
  let p: string;
  try {
    p = decodeURIComponent(path);
  } catch {
    return path;
  }
  return /^\/(?![\\/])/.test(p) ? new URL(p, 'http://service.invalid').pathname : p;
}

/**
 * What in a path, as it will be sent (normalisedPath), a server may read as a separator the
 * path does not show: a slash or backslash written as an escape (`%2F`, `%5C`, or escaped again,
 * `%252F`), or a segment whose escapes make it `.` or `..` (`%252e%252e`, `..%3B`: `..;` is a dot
 * segment to some servers). Which operation such a path reaches depends on the server in front of
 * the service, and the credentials are chosen by operation, so it is refused rather than guessed
 * at. Undefined for a path with none; otherwise the first such segment, as written.
 */
export function encodedSeparator(path: string): string | undefined {
  for (const segment of path.split('?')[0]!.split('/')) {
    const plain = fullyDecoded(segment);
    if (/[/\\]/.test(plain) || /^\.\.?(;.*)?$/.test(plain)) return segment;
  }
  return undefined;
}

/** A segment with its escapes of ASCII characters decoded until none is left (`%252F` is `/`). */
function fullyDecoded(segment: string): string {
  let s = segment;
  for (;;) {
    const next = s.replace(/%([0-7][0-9a-f])/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    if (next === s) return s;
    s = next;
  }
}

function parseField(raw: string, typed: boolean, flag: string): [string, unknown] {
  const i = raw.indexOf('=');
  if (i <= 0) throw new UsageError(`${flag} takes key=value, got "${raw}"`);
  const key = raw.slice(0, i);
  const text = raw.slice(i + 1);
  if (!typed) return [key, text];
  if (text === 'true') return [key, true];
  if (text === 'false') return [key, false];
  if (text === 'null') return [key, null];
  if (/^-?\d+$/.test(text)) return [key, Number.isSafeInteger(Number(text)) ? Number(text) : new LosslessNumber(text)];
  if (/^-?\d+\.\d+$/.test(text)) return [key, Number(text)];
  return [key, text];
}

export async function runApi(opts: ApiOptions, ctx: Context): Promise<void> {
  // `edp api /path`: the method left out is GET, or POST when a body is given (as gh does).
  const [first, second] = opts.args;
  const omitted = second === undefined && first.startsWith('/');
  if (second === undefined && !omitted)
    throw new UsageError(
      `missing the path: \`${suggest(['api', first, '/api/v3/PATH'])}\`, or \`${suggest(['api', '/api/v3/PATH'])}\` for a GET`,
    );
  const typed = omitted ? first : second!;
  const method: Method = omitted
    ? opts.input !== undefined
      ? 'POST'
      : 'GET'
    : parseChoice(first.toUpperCase(), METHODS, 'method');
  if (!typed.startsWith('/')) throw new UsageError(`path must start with "/", got "${typed}"`);
  // Checked before any credential is read (the client checks every request again, as sent).
  if (namesAnotherHost(typed))
    throw new UsageError(
      `path must be a path on the service, not another host: "${typed}" (requests go only to the configured service)`,
    );
  // The path as it will be sent (`/api/v3/workspaces/../datasources/` is `/api/v3/datasources/`):
  // the credentials are chosen for it, and the client checks it before anything is sent.
  const target = normalisedPath(typed);
  if (sentPathProblem(target, '') !== undefined)
    throw new UsageError(
      `path must be a path on the service, not another host: "${typed}" (it names another host once its escapes are read)`,
    );
  const escaped = encodedSeparator(target);
  if (escaped !== undefined)
    throw new UsageError(
      `path "${typed}" is not sent: servers read its segment "${escaped}" in different ways (an escaped / or \\, or a dot segment), and the credentials are chosen by path; write the path with plain "/" instead`,
    );
  if (opts.basic && opts.bearer) throw new UsageError('--basic and --bearer cannot be used together');
  if (opts.paginate && method !== 'GET') throw new UsageError('--paginate works with GET only');
  const limit = limitOf(opts.limit);
  const fields = [
    ...(opts.field ?? []).map((f) => parseField(f, false, '-f/--field')),
    ...(opts.typedField ?? []).map((f) => parseField(f, true, '-F/--typed-field')),
  ];
  let body: unknown;
  if (opts.input !== undefined) {
    if (method === 'GET') throw new UsageError('--input sends a body; GET takes none');
    const input = await readSource(opts.input, ctx.io.stdin, '--input');
    body = parseJsonDocument(input.text, '--input', input.name);
    if (fields.length > 0) {
      if (!body || typeof body !== 'object' || Array.isArray(body))
        throw new UsageError('-f/-F fields need the --input body to be a JSON object');
      body = { ...(body as object), ...Object.fromEntries(fields) };
    }
  } else if (method !== 'GET' && fields.length > 0) {
    body = Object.fromEntries(fields);
  }
  const query: Query | undefined =
    method === 'GET' && fields.length > 0
      ? (Object.fromEntries(fields.map(([k, v]) => [k, v === null ? 'null' : String(v)])) as Query)
      : undefined;
  const auth: AuthKind = opts.basic ? 'basic' : opts.bearer ? 'bearer' : defaultAuthFor(target, method);
  // A path of no operation (a typo, most often) says so with the nearest ones, where it fails.
  const unknown = unknownPathHint(target);
  let workspaceId;
  try {
    workspaceId = auth === 'bearer' ? ctx.requireWorkspace() : ctx.settings.workspace()?.value;
  } catch (err) {
    throw unknown ? withHint(err as Error, unknown) : err;
  }
  try {
    await send(ctx, { method, target, query, body, auth, workspaceId, paginate: !!opts.paginate, limit });
  } catch (err) {
    throw unknown && err instanceof ApiError && err.status === 404 ? withHint(err, unknown) : err;
  }
}

interface Request {
  method: Method;
  target: string;
  query: Query | undefined;
  body: unknown;
  auth: AuthKind;
  workspaceId: string | undefined;
  paginate: boolean;
  limit: number | undefined;
}

/** Sends the request, or every page of it, and prints the answer. */
async function send(ctx: Context, r: Request): Promise<void> {
  const { method, target, query, body, auth, workspaceId, limit } = r;

  const api = await ctx.api();
  if (r.paginate) {
    const [p, qs] = target.split('?');
    const baseQuery: Query = { ...Object.fromEntries(new URLSearchParams(qs ?? '')), ...(query ?? {}) };
    delete baseQuery.page;
    const items = api.list({ path: p!, auth, workspaceId, query: baseQuery }, { limit });
    if (ctx.output.flags.ndjson) await ctx.output.list(items, []);
    else await ctx.output.jsonArray(items);
    return;
  }
  const sendTo = (path: string) => api.client.request({ method, path, query, body, auth, workspaceId, expect: 'any' });
  let res;
  try {
    res = await sendTo(target);
  } catch (err) {
    // A GET the service redirects to its canonical path, on the same service, is sent there
    // once, as gh does; a write never is (the body would be lost), nor a move to another host.
    const path = method === 'GET' ? canonicalPath(err, ctx.settings.baseUrl().value) : undefined;
    const [sent, search] = target.split(/(?=\?)/);
    if (path === undefined || path === sent) throw err;
    // The query as given (the answer's repeats it, with the -f fields the client adds again).
    const moved = `${path}${search ?? ''}`;
    ctx.output.info(`the service moved ${target} to ${moved}: sent there`);
    res = await sendTo(moved);
  }
  if (res.data === undefined) {
    if (!ctx.output.machine) ctx.output.info(`${res.status} (no body)`);
    return;
  }
  if (typeof res.data === 'string') ctx.output.write(res.data.endsWith('\n') ? res.data : `${res.data}\n`);
  else ctx.output.json(res.data);
}
