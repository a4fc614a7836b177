import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import type { Answer } from '../../src/sandbox/options.js';
import { OPERATIONS, isOperationId, openApiPath, operation, operationOf } from '../../src/contract/operations.js';
import { STATE_RULES, stateRulesOf } from '../../src/contract/state-rules.js';
import { violationOf } from '../fixtures/openapi-check.js';
import { arbitraryOf, invalidValues, type Pool, type Schema } from './schema-arbitrary.js';
import { PASSWORD, USERNAME } from '../helpers.js';

/**
 * Requests generated from the sandbox's own OpenAPI document, for every operation, sent to a
 * fresh sandbox with valid credentials and ids from its demo data. Valid requests (by the
 * document) are never refused for their shape: a 400 is one of the operation's state rules
 * (src/contract/state-rules.ts). Requests that break one rule of the document are refused with
 * 400. Either way: no 5xx, a declared status, an answer its schema takes. Seeded: a failure
 * names its seed and path, and `EDP_PROPERTY_SEED` replays another seed.
 */

const SEED = Number(process.env.EDP_PROPERTY_SEED ?? 20261128);
const VALID_RUNS = 25;
const INVALID_RUNS = 10;
const WS = 101;

type Doc = { paths: Record<string, Record<string, any>>; components: { schemas: Record<string, unknown> } };
let doc: Doc;

const ajv = new Ajv2020({ strict: false, allowUnionTypes: true });
addFormats.default(ajv);
// Query values arrive as text: read as the schema's type first, as a server does.
const ajvQuery = new Ajv2020({ strict: false, allowUnionTypes: true, coerceTypes: true });
addFormats.default(ajvQuery);

interface Request {
  params: Record<string, string>;
  query: Record<string, string>;
  body?: unknown;
}

interface Operation {
  method: string;
  /** a v3 list reads a `page` that is no page number as past the end, a `page_size` that is no size as the default */
  lenientPaging: boolean;
  path: string;
  op: any;
  querySchema: Schema;
  bodySchema: Schema | undefined;
  validQuery: ValidateFunction;
  validBody: ValidateFunction | undefined;
}

function operationFor(method: string, route: string): Operation {
  const path = openApiPath(route);
  const op = doc.paths[path]![method.toLowerCase()];
  const query = (op.parameters as any[]).filter((p) => p.in === 'query');
  const querySchema: Schema = {
    type: 'object',
    properties: Object.fromEntries(query.map((p) => [p.name, p.schema])),
    required: query.filter((p) => p.required).map((p) => p.name),
  };
  const bodySchema = op.requestBody?.content['application/json'].schema;
  const row = OPERATIONS.find((r) => r.method === method && r.path === route);
  return {
    method,
    lenientPaging: row?.paging?.mode === 'v3',
    path,
    op,
    querySchema,
    bodySchema,
    validQuery: ajvQuery.compile(querySchema),
    validBody: bodySchema && ajv.compile(bodySchema),
  };
}

function isValid(o: Operation, r: Request): boolean {
  if (!o.validQuery(structuredClone(r.query))) return false;
  return o.validBody ? o.validBody(r.body) : true;
}

/** Query values as sent: text. */
const wire = (v: unknown): string | undefined =>
  typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined;

// ---------------------------------------------------------------- ids from the demo data

type State = any;
const inWs = (rows: any[]) => rows.filter((r) => r.workspace_id === undefined || r.workspace_id === WS);

/** Values for a path's parameters that name things the caller can see. */
const PARAMS: Array<[RegExp, (s: State, method: string) => Array<Record<string, unknown>>]> = [
  [/^\/api\/v3\/workspaces\/:id/, (s) => s.workspaces.map((w: any) => ({ id: w.id }))],
  [/automated-recipe-templates\/:id/, (s) => s.recipe_templates.map((t: any) => ({ id: t.id }))],
  [/automated-recipes\/:id/, (s) => inWs(s.recipes).map((r: any) => ({ id: r.id }))],
  [
    /\/connections\/:connection_id\/accounts\/:account_id/,
    (s) => inWs(s.accounts).map((a: any) => ({ connection_id: a.connection_id, account_id: a.id })),
  ],
  [/\/connections\/:connection_id/, (s) => inWs(s.connections).map((c: any) => ({ connection_id: c.id }))],
  [/data-tables\/:data_table_id/, (s) => inWs(s.data_tables).map((t: any) => ({ data_table_id: t.id }))],
  [
    /datasources\/:datasource_name\/connections\/:id/,
    (s) => inWs(s.connections).map((c: any) => ({ datasource_name: c.datasource_name, id: c.id })),
  ],
  [
    /external-auth-links\/:id/,
    (s) => inWs(s.external_auth_links).map((l: any) => ({ datasource_name: l.datasource_name, id: l.id })),
  ],
  [
    /extract-templates\/:id/,
    (s) => s.extract_templates.map((t: any) => ({ datasource_name: t.datasource_name, id: t.id })),
  ],
  [/datasources\/:datasource_name/, (s) => s.datasources.map((d: any) => ({ datasource_name: d.name }))],
  [
    /destinations\/:destination_name\/connections\/:(id|destination_connection_id)/,
    (s) =>
      inWs(s.destination_connections).map((c: any) => ({
        destination_name: c.destination_name,
        id: c.id,
        destination_connection_id: c.id,
      })),
  ],
  [/destinations\/:destination_name/, (s) => s.destinations.map((d: any) => ({ destination_name: d.name }))],
  [/extract-template\/:template_id/, (s) => s.extract_templates.map((t: any) => ({ template_id: t.id }))],
  [/extracts\/:(id|extract_id)/, (s) => inWs(s.extracts).map((e: any) => ({ id: e.id, extract_id: e.id }))],
  [/loads\/:id/, (s) => inWs(s.loads).map((l: any) => ({ id: l.id }))],
  [
    /roles\/:role_id/,
    // System roles are read-only (403): a change goes to the agency's own roles.
    (s, method) =>
      s.roles
        .filter((r: any) => !r.is_internal && (method === 'GET' || !r.is_system))
        .map((r: any) => ({ role_id: r.id })),
  ],
  [/webhook_endpoints\/:id/, (s) => inWs(s.webhook_endpoints).map((e: any) => ({ id: e.id }))],
];

function paramChoices(method: string, route: string, state: State): Array<Record<string, string>> {
  const names = [...route.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!);
  if (names.length === 0) return [{}];
  const found = PARAMS.find(([re]) => re.test(route));
  if (!found) throw new Error(`no demo ids for ${route}`);
  const rows = found[1](state, method);
  if (rows.length === 0) throw new Error(`the demo data has nothing for ${route}`);
  return rows.map((row) => Object.fromEntries(names.map((n) => [n, String(row[n])])));
}

/** Ids and names of the demo data, for the ids and names of bodies and queries. */
function poolOf(state: State): Pool {
  const integers = new Set<number>();
  const strings = new Set<string>();
  for (const rows of Object.values(state as Record<string, unknown>))
    if (Array.isArray(rows))
      for (const row of inWs(rows))
        if (typeof row?.id === 'number' && Number.isSafeInteger(row.id)) integers.add(row.id);
  for (const d of [...state.datasources, ...state.destinations]) strings.add(d.name);
  for (const t of state.extract_templates) for (const f of t.fields ?? []) strings.add(f.name);
  for (const a of inWs(state.accounts)) strings.add(a.account_id);
  const ids = (rows: any[]) => inWs(rows).map((r) => r.id);
  const keys = {
    workspace_id: [WS],
    recipe_id: ids(state.agency_recipes),
    connection_id: ids(state.connections),
    account_embedded_id: ids(state.accounts),
    data_table_id: ids(state.data_tables),
    destination_connection_id: ids(state.destination_connections),
    migrated_from_extraction_id: ids(state.extracts),
    parent_id: ids(state.extract_templates),
    template_id: [...ids(state.recipe_templates), ...ids(state.extract_templates)],
    requested_by: state.users.map((u: any) => u.email),
  };
  return { integers: [...integers], strings: [...strings], keys };
}

// ---------------------------------------------------------------- a fresh sandbox per operation

interface Target {
  sb: Sandbox;
  answers: Answer[];
  auth: string;
}

const basic = `Basic ${Buffer.from(`${USERNAME}:${PASSWORD}`).toString('base64')}`;

/**
 * The file's one sandbox, and the answers it gave. Each property starts from it reset
 * (`POST /_sandbox/reset`: the demo data, the clock and the knobs as started, which is what a
 * new sandbox has) rather than from a new sandbox: a reset costs a few milliseconds, a start
 * some 40, and there are two per operation.
 */
let shared: Sandbox;
const answers: Answer[] = [];

async function target(o: Operation): Promise<Target> {
  const sb = shared;
  const reset = await sb.app.inject({ method: 'POST', url: '/_sandbox/reset' });
  if (reset.statusCode !== 200) throw new Error(`reset: ${reset.statusCode} ${reset.body}`);
  const send = async (method: string, url: string, auth: string, payload?: unknown) => {
    const res = await sb.app.inject({
      method: method as 'GET',
      url,
      headers: { authorization: auth },
      payload: payload as object,
    });
    if (res.statusCode >= 300) throw new Error(`setup ${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.json();
  };
  const token = `Bearer ${(await send('POST', '/api/v3/token', basic, { workspace_id: WS })).token}`;
  // What the demo data lacks: a recipe, a webhook endpoint (whose receiver is not there), an iframe code.
  await send('POST', '/api/v3.1/automated-recipes/', token, { template_id: 4001, title: 'Property' });
  await send('POST', '/api/v3/webhook_endpoints/', token, {
    url: 'http://127.0.0.1:9/hook',
    event_types: ['account_enabled'],
  });
  const security: any[] = o.op.security;
  return { sb, answers, auth: security.some((s) => 'basic' in s) ? basic : security.length === 0 ? '' : token };
}

function url(route: string, r: Request): string {
  const path = route.replace(/:([A-Za-z0-9_]+)/g, (_m, n: string) => encodeURIComponent(r.params[n]!));
  const qs = new URLSearchParams(r.query).toString();
  return qs ? `${path}?${qs}` : path;
}

async function send(t: Target, o: Operation, route: string, r: Request) {
  t.answers.length = 0;
  const res = await t.sb.app.inject({
    method: o.method as 'GET',
    url: url(route, r),
    headers: {
      ...(t.auth ? { authorization: t.auth } : {}),
      ...(o.bodySchema ? { 'content-type': 'application/json' } : {}),
    },
    payload: o.bodySchema ? JSON.stringify(r.body) : undefined,
  });
  const where = `${o.method} ${url(route, r)} ${o.bodySchema ? JSON.stringify(r.body) : ''} → ${res.statusCode} ${res.body.slice(0, 300)}`;
  expect(res.statusCode, where).toBeLessThan(500);
  expect(Object.keys(o.op.responses), where).toContain(String(res.statusCode));
  expect(res.headers['x-im-trace-id'], where).toBeTruthy();
  const answer = t.answers.at(-1);
  expect(answer, where).toBeDefined();
  expect(violationOf(answer!, doc as any), where).toBeUndefined();
  return { status: res.statusCode, body: res.body, where };
}

/**
 * What a 400 names: the v3.1 envelope's code with its message or each of its fields; a `{detail}`
 * answer's fields (`field: message`), or its detail.
 */
function refusals(body: string): Array<{ code?: string; text: string }> {
  const parsed = JSON.parse(body) as Record<string, any>;
  if (typeof parsed.code === 'string') {
    const fields = (parsed.details?.fields ?? []) as Array<{ field: string; message: string }>;
    if (fields.length > 0) return fields.map((f) => ({ code: parsed.code, text: `${f.field}: ${f.message}` }));
    return [{ code: parsed.code, text: String(parsed.message) }];
  }
  const fields = Object.entries(parsed).filter(
    ([k, v]) => k !== 'detail' && Array.isArray(v) && typeof v[0] === 'string',
  );
  if (fields.length > 0) return fields.map(([k, v]) => ({ text: `${k}: ${(v as string[])[0]}` }));
  return [{ text: String(parsed.detail) }];
}

/** Whether each thing a 400 names is one of the operation's state rules. */
function byStateRules(method: string, route: string, body: string): boolean {
  const op = operationOf(method, route);
  const rules = op ? stateRulesOf(op) : [];
  return refusals(body).every((r) =>
    rules.some((rule) => (r.code === undefined || r.code === rule.code) && rule.message.test(r.text)),
  );
}

// ---------------------------------------------------------------- generators

function requests(o: Operation, params: Array<Record<string, string>>, pool: Pool): fc.Arbitrary<Request> {
  const query = arbitraryOf(o.querySchema, pool).map((q) =>
    Object.fromEntries(
      Object.entries(q as Record<string, unknown>)
        .map(([k, v]) => [k, wire(v)])
        .filter(([, v]) => v !== undefined),
    ),
  ) as fc.Arbitrary<Record<string, string>>;
  return fc.record({
    params: fc.constantFrom(...params),
    query,
    body: o.bodySchema ? arbitraryOf(o.bodySchema, pool) : fc.constant(undefined),
  });
}

/** Every way to break one rule of a value: a value out of its schema, a required key missing, an unknown key. */
function breakings(schema: Schema | undefined, value: unknown, put: (v: unknown) => unknown): unknown[] {
  if (!schema) return [];
  const out = invalidValues(schema).map(put);
  if (schema.anyOf) for (const s of schema.anyOf as Schema[]) out.push(...breakings(s, value, put));
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const obj = value as Record<string, unknown>;
    for (const key of schema.required ?? []) {
      const { [key]: _gone, ...rest } = obj;
      out.push(put(rest));
    }
    if (schema.additionalProperties === false) out.push(put({ ...obj, no_such_field: 1 }));
    for (const [key, s] of Object.entries((schema.properties ?? {}) as Record<string, Schema>))
      if (key in obj) out.push(...breakings(s, obj[key], (v) => put({ ...obj, [key]: v })));
  }
  if (Array.isArray(value) && value.length > 0 && schema.items)
    out.push(...breakings(schema.items, value[0], (v) => put([v, ...value.slice(1)])));
  return out;
}

function invalidRequests(o: Operation, r: Request): Request[] {
  const out: Request[] = [];
  for (const [name, s] of Object.entries((o.querySchema.properties ?? {}) as Record<string, Schema>))
    for (const v of o.lenientPaging && (name === 'page' || name === 'page_size') ? [] : invalidValues(s)) {
      const text = wire(v);
      if (text !== undefined) out.push({ ...r, query: { ...r.query, [name]: text } });
    }
  for (const name of o.querySchema.required ?? []) {
    const { [name]: _gone, ...rest } = r.query;
    out.push({ ...r, query: rest });
  }
  out.push(...breakings(o.bodySchema, r.body, (body) => ({ ...r, body })).map((x) => x as Request));
  return out.filter((x) => !isValid(o, x));
}

// ---------------------------------------------------------------- the properties

beforeAll(async () => {
  shared = await startSandbox({ port: 0, retryAfter: 0, buildSeconds: 0.01, onAnswer: (a) => answers.push(a) });
  doc = (await (await shared.app.inject({ method: 'GET', url: '/_sandbox/openapi.json' })).json()) as Doc;
});
afterAll(() => shared?.close());

describe(`requests generated from the document (seed ${SEED})`, () => {
  const stats = { valid: 0, invalid: 0, breakable: 0 };
  afterAll(() => {
    // Both kinds were sent in numbers: a generator that produced nothing would prove nothing.
    expect(stats.valid).toBeGreaterThan(OPERATIONS.length * VALID_RUNS * 0.9);
    expect(stats.breakable).toBeGreaterThan(30);
    expect(stats.invalid).toBeGreaterThan(stats.breakable * INVALID_RUNS * 0.5);
  });

  it.each(OPERATIONS.map((op, i) => [`${op.method} ${op.path}`, op.method, op.path, i] as const))(
    '%s',
    async (_name, method, route, index) => {
      const o = operationFor(method, route);
      const seed = SEED + index;

      const t = await target(o);
      const params = paramChoices(method, route, t.sb.store.state);
      await fc.assert(
        fc.asyncProperty(requests(o, params, poolOf(t.sb.store.state)), async (r) => {
          fc.pre(isValid(o, r));
          stats.valid++;
          const res = await send(t, o, route, r);
          if (res.status === 400)
            expect(byStateRules(method, route, res.body), `refused for its shape: ${res.where}`).toBe(true);
        }),
        { seed, numRuns: VALID_RUNS, endOnFailure: true },
      );

      const breakable = Object.keys(o.querySchema.properties ?? {}).filter(
        (name) => !(o.lenientPaging && (name === 'page' || name === 'page_size')),
      );
      if (!o.bodySchema && breakable.length === 0) return;
      stats.breakable++;
      const u = await target(o);
      const uParams = paramChoices(method, route, u.sb.store.state);
      await fc.assert(
        fc.asyncProperty(requests(o, uParams, poolOf(u.sb.store.state)), fc.nat(), async (r, k) => {
          fc.pre(isValid(o, r));
          const bad = invalidRequests(o, r);
          // A query of free text only (a v3 search) has no rule to break.
          if (bad.length === 0) return;
          stats.invalid++;
          const res = await send(u, o, route, bad[k % bad.length]!);
          expect([400, 405, 413, 415], `not refused: ${res.where}`).toContain(res.status);
        }),
        { seed, numRuns: INVALID_RUNS, endOnFailure: true },
      );
    },
  );
});

describe('state rules', () => {
  it('name operations of the table, and each is said in its operation’s description', () => {
    for (const [id, rules] of Object.entries(STATE_RULES)) {
      expect(isOperationId(id), id).toBe(true);
      if (!isOperationId(id)) continue;
      const { method, path } = operation(id);
      const description: string = doc.paths[openApiPath(path)]![method.toLowerCase()].description;
      for (const rule of rules) expect(description, id).toContain(`- ${rule.says}`);
    }
  });
});

describe('paging of v3 lists', () => {
  it('a page that is no page number is 404 (an empty first page for the links), a size that is no size the default', async () => {
    const sb = await startSandbox({ port: 0 });
    try {
      const get = (url: string) => sb.app.inject({ method: 'GET', url, headers: { authorization: basic } });
      for (const page of ['0', 'x', '1.5', '-1']) {
        expect((await get(`/api/v3/workspaces?page=${page}`)).statusCode, page).toBe(404);
        const token = (
          await sb.app.inject({
            method: 'POST',
            url: '/api/v3/token',
            headers: { authorization: basic },
            payload: { workspace_id: WS },
          })
        ).json().token;
        const links = await sb.app.inject({
          method: 'GET',
          url: `/api/v3/datasources/google_ads/external-auth-links?page=${page}`,
          headers: { authorization: `Bearer ${token}` },
        });
        expect(links.statusCode, page).toBe(200);
        expect(links.json().previous, page).toBeNull();
      }
      for (const size of ['0', 'x', '1.5']) {
        const res = await get(`/api/v3/workspaces?page_size=${size}`);
        expect(res.statusCode, size).toBe(200);
        expect(res.json().results, size).toHaveLength(3);
      }
      const list = doc.paths['/api/v3/workspaces']!.get.parameters;
      expect(list.find((p: any) => p.name === 'page').description).toMatch(/no page number/);
      expect(list.find((p: any) => p.name === 'page_size').description).toMatch(/no size, as the default/);
    } finally {
      await sb.close();
    }
  });
});
