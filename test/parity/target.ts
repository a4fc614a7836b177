import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { inject } from 'vitest';
import { parseJson, LosslessNumber } from '../../src/util/json.js';
import { parseDuration } from '../../src/util/validate.js';
import { recordLeftBehind, type Place } from './left-behind.js';

/**
 * The parity checks' only way to the target: plain HTTP. Redirects are never followed (the
 * contract's 301 on slashless recipe paths turns a followed POST into a GET), bodies are parsed
 * losslessly (recipe ids are beyond 2^53).
 */

export const target = inject('parity');
export const baseUrl = target.baseUrl;
export const scratchWorkspace = target.scratchWorkspace === null ? null : Number(target.scratchWorkspace);
/** Write checks run only against a scratch workspace (EDP_PARITY_WORKSPACE). */
export const canWrite = scratchWorkspace !== null;
export const WRITE_SKIP = 'write check: set EDP_PARITY_WORKSPACE to a scratch workspace';
/**
 * Writes outside the scratch workspace that nothing can undo (a workspace made, an agency
 * recipe enabled): always against the fresh sandbox, against a service only when asked for.
 */
export const agencyWrites = target.agencyWrites;
export const AGENCY_SKIP = 'writes outside the scratch workspace, for good: set EDP_PARITY_AGENCY_WRITES=1 to allow it';
/** Connections of the scratch workspace a check may delete (EDP_PARITY_DELETE_CONNECTIONS), or 'any'. */
export const deletableConnections = target.deletableConnections;

/**
 * Records something a check leaves on the target for good (see left-behind.ts): `where` a
 * workspace id or 'agency', `what` it is (`extract 17 "parity ..."`), `why` it stays.
 */
export function leftBehind(where: Place, what: string, why: string): void {
  recordLeftBehind(target.answers, where, what, why);
}

/**
 * How long a check waits for what the service does in its own time (a build to end, a delivery
 * to arrive): EDP_PARITY_TIMEOUT (`10m`, `90s`) against a real service, whose builds and
 * deliveries take minutes; the check's own short wait, made for the sandbox, otherwise.
 */
export function parityWait(defaultSeconds: number): number {
  const given = process.env.EDP_PARITY_TIMEOUT;
  return given ? parseDuration(given, 'EDP_PARITY_TIMEOUT') / 1000 : defaultSeconds;
}

/** A local receiver is reachable from the target only when the target itself runs on this machine. */
export const targetIsLocal = ['127.0.0.1', 'localhost', '[::1]', '::1'].includes(new URL(baseUrl).hostname);

export type Auth = 'basic' | 'none' | { bearer: string } | { basicAs: [string, string] } | { header: string };

export interface CallOptions {
  auth?: Auth;
  /** a JSON body (serialized losslessly) */
  json?: unknown;
  /** a raw body, sent as is with `contentType` */
  raw?: string;
  contentType?: string;
  headers?: Record<string, string>;
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** the body parsed losslessly, or undefined when it is not JSON */
  body: any;
  header(name: string): string | undefined;
}

export function basicHeader(username = target.username, password = target.password): string {
  return `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
}

function authHeader(auth: Auth): string | undefined {
  if (auth === 'none') return undefined;
  if (auth === 'basic') return basicHeader();
  if ('bearer' in auth) return `Bearer ${auth.bearer}`;
  if ('basicAs' in auth) return basicHeader(...auth.basicAs);
  return auth.header;
}

/** One request to `{base_url}{path}`; `path` starts with `/` and may carry a query. */
export async function call(method: string, path: string, opts: CallOptions = {}): Promise<Answer> {
  const headers: Record<string, string> = { accept: 'application/json', ...opts.headers };
  const authorization = authHeader(opts.auth ?? 'none');
  if (authorization) headers.authorization = authorization;
  let body: string | undefined;
  if (opts.json !== undefined) {
    body = stringify(opts.json);
    headers['content-type'] = opts.contentType ?? 'application/json';
  } else if (opts.raw !== undefined) {
    body = opts.raw;
    headers['content-type'] = opts.contentType ?? 'application/json';
  }
  // undici's request never follows redirects unless told to.
  const res = await request(`${baseUrl}${path}`, { method: method as 'GET', headers, body });
  const text = await res.body.text();
  appendFileSync(
    join(target.answers, `${process.pid}.ndjson`),
    `${JSON.stringify({ method, path: path.split('?')[0], status: res.statusCode, text })}\n`,
  );
  let parsed: unknown;
  try {
    parsed = text === '' ? undefined : parseJson(text);
  } catch {
    parsed = undefined;
  }
  const h = res.headers as Record<string, string | string[] | undefined>;
  return {
    status: res.statusCode,
    headers: h,
    text,
    body: parsed,
    header(name) {
      const v = h[name.toLowerCase()];
      return Array.isArray(v) ? v[0] : v;
    },
  };
}

function stringify(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => (v instanceof LosslessNumber ? `\u0000${v.value}` : v)).replace(
    /"\\u0000(\d+)"/g,
    '$1',
  );
}

/** The text of an identifier as sent (number, big number or string). */
export const idText = (v: unknown): string => (v instanceof LosslessNumber ? v.value : String(v));

/** A token for a workspace, from the agency credentials. */
export async function tokenFor(workspaceId: number): Promise<string> {
  const res = await call('POST', '/api/v3/token', { auth: 'basic', json: { workspace_id: workspaceId } });
  if (res.status !== 200 || typeof res.body?.token !== 'string') {
    throw new Error(
      `POST /api/v3/token for workspace ${workspaceId} answered ${res.status}: ${res.text.slice(0, 300)}`,
    );
  }
  return res.body.token;
}

/** Every workspace id the agency credentials see, in order (all pages). */
export async function workspaceIds(): Promise<number[]> {
  const ids: number[] = [];
  for (let page = 1; page < 100; page++) {
    const res = await call('GET', `/api/v3/workspaces?page=${page}&page_size=100`, { auth: 'basic' });
    if (res.status !== 200) throw new Error(`GET /api/v3/workspaces answered ${res.status}: ${res.text.slice(0, 300)}`);
    ids.push(...res.body.results.map((w: { id: unknown }) => Number(idText(w.id))));
    if (!res.body.next) break;
  }
  return ids;
}

/** The workspace read-only checks use: the scratch workspace when there is one, else the first. */
export async function readWorkspace(): Promise<number> {
  if (scratchWorkspace !== null) return scratchWorkspace;
  const ids = await workspaceIds();
  if (ids.length === 0) throw new Error('The agency has no workspace: the checks need one.');
  return ids[0]!;
}

/** A workspace other than `id`, for the wrong-workspace rules, or undefined when the agency has one only. */
export async function otherWorkspace(id: number): Promise<number | undefined> {
  return (await workspaceIds()).find((w) => w !== id);
}

/** All items of a v3 list, following `next` (full URLs on the target). */
export async function allItems(path: string, auth: Auth): Promise<any[]> {
  const items: any[] = [];
  let next: string | null = path;
  for (let i = 0; next && i < 200; i++) {
    const res: Answer = await call('GET', next, { auth });
    if (res.status !== 200) throw new Error(`GET ${next} answered ${res.status}: ${res.text.slice(0, 300)}`);
    items.push(...res.body.results);
    next = res.body.next ? relative(res.body.next) : null;
  }
  return items;
}

/** A full URL from the target as a path relative to the base URL. */
export function relative(url: string): string {
  const u = new URL(url);
  const base = new URL(baseUrl);
  const prefix = base.pathname.replace(/\/$/, '');
  return u.pathname.slice(prefix.length) + u.search;
}

/** Names of the data table system fields (docs/contract-rules.md, What the service does). */
export const SYSTEM_FIELDS = ['account_id', 'account_name', '__insert_date'];

/** Checks the v3.1 error envelope `{code, message, details}` (docs/contract-rules.md, Errors: Two shapes 1). */
export function expectCodeEnvelope(res: Answer, status: number, code: string): void {
  const where = `${res.status} ${res.text.slice(0, 400)}`;
  if (res.status !== status) throw new Error(`expected status ${status}, got ${where}`);
  const b = res.body;
  if (!b || typeof b !== 'object') throw new Error(`expected a JSON {code, message, details} body, got ${where}`);
  if (b.code !== code) throw new Error(`expected code "${code}", got ${where}`);
  if (typeof b.message !== 'string') throw new Error(`expected a string message, got ${where}`);
  if (!b.details || typeof b.details !== 'object' || Array.isArray(b.details))
    throw new Error(`expected details to be an object, got ${where}`);
}

/** Checks the `{detail}` envelope of every other operation (one page spells it `details`). */
export function expectDetailEnvelope(res: Answer, status: number): void {
  const where = `${res.status} ${res.text.slice(0, 400)}`;
  if (res.status !== status) throw new Error(`expected status ${status}, got ${where}`);
  const b = res.body;
  if (!b || typeof b !== 'object' || (!('detail' in b) && !('details' in b)))
    throw new Error(`expected a JSON {detail} body, got ${where}`);
  if ('code' in b && 'message' in b && !('detail' in b))
    throw new Error(`expected the {detail} envelope, not {code, message, details}: ${where}`);
}

/** Fails with the answer in the message when the status is not the expected one. */
export function expectStatus(res: Answer, ...statuses: number[]): void {
  if (!statuses.includes(res.status)) {
    throw new Error(`expected status ${statuses.join(' or ')}, got ${res.status} ${res.text.slice(0, 400)}`);
  }
}
