import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Sandbox } from '../../src/sandbox/index.js';
import { OPERATIONS, openApiPath } from '../../src/contract/operations.js';
import { EVENT_TYPES } from '../../src/contract/events.js';
import { violationOf } from '../fixtures/openapi-check.js';
import { http, sandbox, tokenFor } from '../helpers.js';

let sb: Sandbox;
let token: string;
let doc: any;
beforeAll(async () => {
  sb = await sandbox();
  token = await tokenFor(sb, 101);
  const r = await http(sb, 'GET', '/_sandbox/openapi.json');
  expect(r.status).toBe(200);
  doc = r.body;
});
afterAll(() => sb.close());

/** Every registered route as `METHOD /path`, read from fastify's own route tree. */
function registeredRoutes(): string[] {
  const out: string[] = [];
  const stack: string[] = [];
  for (const line of sb.app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^((?:│ {3}| {4})*)(?:├── |└── )(.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!m) continue;
    const depth = m[1]!.length / 4;
    stack.length = depth;
    const path = (stack[depth - 1] ?? '') + m[2]!;
    stack[depth] = path;
    for (const method of (m[3] ?? '').split(', ').filter((x) => x && x !== 'HEAD')) out.push(`${method} ${path}`);
  }
  return out;
}

/** Paths compared with parameters blanked: fastify's tree shows `:id|:extract_id` where routes name one segment differently. */
const fromFastify = (path: string) => path.replace(/:[A-Za-z_]+(?:\|:[A-Za-z_]+)*/g, '{}');
const fromOpenApi = (path: string) => path.replace(/\{[^}]+\}/g, '{}');
const bodySchema = (path: string, method: string) =>
  z.fromJSONSchema(doc.paths[path][method].requestBody.content['application/json'].schema);

describe('OpenAPI document', () => {
  it('is OpenAPI 3.1 and lists exactly the /api/ routes the sandbox serves, both versions', () => {
    expect(doc.openapi).toBe('3.1.0');
    const api = registeredRoutes().filter((r) => r.split(' ')[1]!.startsWith('/api/'));
    expect(api.length).toBeGreaterThan(60);
    const documented = Object.entries(doc.paths)
      .filter(([path]) => path.startsWith('/api/'))
      .flatMap(([path, ops]) => Object.keys(ops as object).map((m) => `${m.toUpperCase()} ${fromOpenApi(path)}`));
    expect(documented.sort()).toEqual(
      api
        .map((r) => {
          const [m, p] = r.split(' ');
          return `${m} ${fromFastify(p!)}`;
        })
        .sort(),
    );
    expect(doc.paths['/api/v3.1/automated-recipes/{id}/build/'].post).toBeDefined();
    expect(doc.paths['/api/v3/automated-recipes/{id}/build/'].post).toBeDefined();
  });

  it('declares path parameters and the queries the handlers read', () => {
    const detail = doc.paths['/api/v3.1/automated-recipes/{id}/'].get;
    // Ids are their digits (a recipe id passes 2^53); names are text.
    const id = detail.parameters.find((p: any) => p.name === 'id');
    expect(id).toMatchObject({ in: 'path', required: true, schema: { type: 'string', pattern: '^[1-9][0-9]*$' } });
    const re = new RegExp(id.schema.pattern);
    expect(['9007199254740993', '7'].every((v) => re.test(v))).toBe(true);
    expect(['0', '-1', '1.5', 'abc', ''].some((v) => re.test(v))).toBe(false);
    const named = doc.paths['/api/v3/datasources/{datasource_name}/connections'].get.parameters[0];
    expect(named).toMatchObject({ name: 'datasource_name', schema: { type: 'string', minLength: 1 } });
    const list = doc.paths['/api/v3.1/automated-recipes/'].get;
    const state = list.parameters.find((p: any) => p.name === 'state');
    expect(state).toMatchObject({ in: 'query', required: false });
    expect(state.schema.enum).toEqual(['extracting_data', 'building_dependencies', 'ready_to_work', 'failed']);
    const accounts = doc.paths['/api/v3.1/connections/{connection_id}/accounts/'].get.parameters.map((p: any) => [
      p.name,
      p.in,
    ]);
    expect(accounts).toEqual([
      ['connection_id', 'path'],
      ['search', 'query'],
      ['page', 'query'],
      ['page_size', 'query'],
    ]);
  });

  it('names each status an operation answers, with the error envelope of its version, and Retry-After on 503', () => {
    const v31 = doc.paths['/api/v3.1/automated-recipes/'].post.responses;
    const v3 = doc.paths['/api/v3/automated-recipes/'].post.responses;
    expect(Object.keys(v31).sort()).toEqual(['201', '400', '401', '403', '404', '409', '413', '415', '500', '503']);
    expect(Object.keys(v3)).toContain('410');
    expect(Object.keys(v3)).not.toContain('409');
    for (const status of ['400', '409'])
      expect(v31[status].content['application/json'].schema.$ref).toBe('#/components/schemas/ErrorEnvelope');
    expect(v3['400'].content['application/json'].schema.$ref).toBe('#/components/schemas/DetailError');
    expect(v31['503'].headers['Retry-After']).toBeDefined();
    expect(JSON.stringify(doc)).not.toMatch(/"[45]XX"/);
    expect(doc.paths['/api/v3.1/automated-recipes/{id}/build/'].post.responses['202']).toBeDefined();
    expect(doc.paths['/api/v3/webhook_endpoints/{id}/'].delete.responses['204']).toBeDefined();
    expect(doc.paths['/api/v3/loads/{id}/run'].put.responses['202']).toBeDefined();
  });

  it('every operation has a summary and the success status the sandbox answers with, from the contract table', () => {
    const ops = Object.entries(doc.paths)
      .filter(([path]) => path.startsWith('/api/'))
      .flatMap(([path, byMethod]) =>
        Object.entries(byMethod as Record<string, any>).map(([method, op]) => ({ path, method, op })),
      );
    expect(ops).toHaveLength(OPERATIONS.length);
    for (const { path, method, op } of ops) {
      const row = OPERATIONS.find((o) => o.method === method.toUpperCase() && openApiPath(o.path) === path);
      expect(row, `${method} ${path}`).toBeDefined();
      expect(op.summary).toBe(row!.summary);
      expect(Object.keys(op.responses)).toContain(String(row!.success));
    }
  });

  it('states the paging bounds of every list that pages, and the shape of its envelope', () => {
    const params = (path: string) =>
      Object.fromEntries(doc.paths[path].get.parameters.map((p: any) => [p.name, p.schema]));
    expect(params('/api/v3.1/automated-recipes/').page_size).toMatchObject({ minimum: 1, maximum: 100 });
    expect(params('/api/v3/datasources/{datasource_name}/external-auth-links').page_size).toMatchObject({ minimum: 1 });
    expect(params('/api/v3/connections/{connection_id}/accounts').page).toMatchObject({ type: 'integer', minimum: 1 });
    const paged = OPERATIONS.filter((o) => o.paging);
    expect(paged.length).toBeGreaterThanOrEqual(20);
    for (const o of paged) {
      const op = doc.paths[openApiPath(o.path)][o.method.toLowerCase()];
      expect(op.parameters.map((p: any) => p.name)).toEqual(expect.arrayContaining(['page', 'page_size']));
      const schema = op.responses['200'].content['application/json'].schema;
      // The envelope, with the shape of its items where the contract shows it.
      expect(schema.$ref ?? schema.allOf[0].$ref).toBe('#/components/schemas/Page');
      if (o.items) expect(schema.allOf[1].properties.results.items.$ref).toBe(`#/components/schemas/${o.items}`);
    }
  });

  it('an error body of the sandbox matches the envelope it documents', async () => {
    const envelope = z.fromJSONSchema(doc.components.schemas.ErrorEnvelope);
    const detail = z.fromJSONSchema(doc.components.schemas.DetailError);
    const missing = await http(sb, 'GET', '/api/v3.1/automated-recipes/1/', { token });
    expect(missing.status).toBe(404);
    expect(envelope.safeParse(missing.body).success).toBe(true);
    const v3 = await http(sb, 'GET', '/api/v3/extracts/999999', { token });
    expect(v3.status).toBe(404);
    expect(detail.safeParse(v3.body).success).toBe(true);
    expect(envelope.safeParse(v3.body).success).toBe(false);
  });

  it.each([
    ['/api/v3.1/automated-recipes/', 'post', { template_id: 4001, title: 'Paid media' }, { title: 'Paid media' }],
    [
      '/api/v3/webhook_endpoints/',
      'post',
      { url: 'https://example.com/hook', event_types: ['load_completed'] },
      { event_types: ['load_completed'] },
    ],
    ['/api/v3/workspaces', 'post', { title: 'Documented' }, { title: 7 }],
  ])('the body schema of %s agrees with the sandbox', async (path, method, good, bad) => {
    const schema = bodySchema(path, method);
    expect(schema.safeParse(good).success).toBe(true);
    expect(schema.safeParse(bad).success).toBe(false);
    const auth = path === '/api/v3/workspaces' ? { basic: true as const } : { token };
    const refused = await http(sb, method.toUpperCase(), path, { ...auth, body: bad });
    expect(refused.status).toBe(400);
    const accepted = await http(sb, method.toUpperCase(), path, { ...auth, body: good });
    expect(accepted.status).toBe(201);
  });

  it('documents both optional load run dates and the v3.1 configuration body', () => {
    const run = doc.paths['/api/v3/loads/{id}/run'].put.requestBody.content['application/json'].schema;
    expect(run.required ?? []).toEqual([]);
    expect(Object.keys(run.properties)).toEqual(['date_from', 'date_to']);
    const configure = bodySchema('/api/v3.1/automated-recipes/{id}/', 'put');
    const body = {
      data_sources: ['google_ads'],
      connections: [{ connection_id: 1001, connection_data_source: 'google_ads', accounts: [{ id: 20001 }] }],
    };
    expect(configure.safeParse(body).success).toBe(true);
    expect(configure.safeParse({ ...body, connections: [{ ...body.connections[0], accounts: [] }] }).success).toBe(
      false,
    );
  });
});

describe('OpenAPI document, every schema in it', () => {
  /** Each schema object of the document with its JSON pointer, and whether `check` finds it wanting. */
  function offenders(check: (schema: Record<string, unknown>) => boolean): string[] {
    const found: string[] = [];
    const walk = (node: unknown, pointer: string) => {
      if (!node || typeof node !== 'object') return;
      if (!Array.isArray(node) && check(node as Record<string, unknown>)) found.push(pointer);
      for (const [key, value] of Object.entries(node))
        walk(value, `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`);
    };
    walk(doc, '#');
    return found;
  }
  const types = (schema: Record<string, unknown>): unknown[] =>
    Array.isArray(schema.type) ? schema.type : [schema.type];

  it('gives every integer its width: int64 for ids (recipe ids pass 2^53), int32 or int64 for the rest', () => {
    const integers = offenders((s) => types(s).includes('integer'));
    expect(integers.length).toBeGreaterThan(100);
    expect(offenders((s) => types(s).includes('integer') && s.format !== 'int32' && s.format !== 'int64')).toEqual([]);
    // An id, wherever it is, is int64; so is every integer past 2^31.
    const narrowIds = offenders(
      (s) =>
        types(s).includes('integer') &&
        s.format !== 'int64' &&
        (typeof s.maximum === 'number' ? s.maximum > 2 ** 31 - 1 : false),
    );
    expect(narrowIds).toEqual([]);
    const idPointers = integers.filter((p) =>
      /(?:^|\/)(?:[a-z_]*_id|id)(?:\/(?:anyOf|items)\/\d+)?$|_ids\/items$/.test(p),
    );
    expect(idPointers.length).toBeGreaterThan(40);
    const resolve = (pointer: string) =>
      pointer
        .slice(2)
        .split('/')
        .reduce<any>((n, k) => n?.[k.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
    expect(idPointers.filter((p) => resolve(p).format !== 'int64')).toEqual([]);
  });

  it('says what the items of every array are', () => {
    expect(offenders((s) => types(s).includes('array') && !('items' in s) && !('prefixItems' in s))).toEqual([]);
  });

  it('its sandbox section declares the control POST /_sandbox/events (and the state controls), and the control answers as it says', async () => {
    const paths = Object.keys(doc.paths).filter((p) => !p.startsWith('/api/'));
    expect(paths.sort()).toEqual([
      '/_sandbox/events',
      '/_sandbox/reset',
      '/_sandbox/snapshots',
      '/_sandbox/snapshots/{name}',
      '/_sandbox/snapshots/{name}/restore',
    ]);
    const op = doc.paths['/_sandbox/events'].post;
    expect(op.tags).toEqual(['sandbox']);
    expect(doc.tags.map((t: any) => t.name)).toContain('sandbox');
    expect(op.requestBody.content['application/json'].schema.properties.event_type.enum).toEqual(EVENT_TYPES);
    for (const [body, status] of [
      [{ event_type: 'load_completed', workspace_id: 101, data: { load_id: '7' } }, 201],
      [{ event_type: 'load_complete', workspace_id: 101 }, 400],
      [{ event_type: 'load_completed', workspace_id: 101, data: [] }, 400],
      [{ event_type: 'load_completed', workspace_id: 999999 }, 404],
    ] as const) {
      const res = await http(sb, 'POST', '/_sandbox/events', { body });
      expect(res.status, JSON.stringify(body)).toBe(status);
      const answer = { method: 'POST', route: '/_sandbox/events', status: res.status, body: res.text };
      expect(violationOf(answer, doc), JSON.stringify(body)).toBeUndefined();
    }
    // The check can fail: an answer the document does not declare is a violation.
    const undeclared = { method: 'POST', route: '/_sandbox/events', status: 201, body: '{"event": 1}' };
    expect(violationOf(undeclared, doc)).toContain('must');
  });
});
