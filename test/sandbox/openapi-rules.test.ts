import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { Sandbox } from '../../src/sandbox/index.js';
import { EVENT_TYPES } from '../../src/contract/events.js';
import * as requests from '../../src/contract/requests.js';
import { http, sandbox, tokenFor } from '../helpers.js';

/**
 * The document carries every rule the sandbox applies to a request's shape: a value the document
 * refuses is refused by the sandbox, and a value the document accepts is not refused for its shape.
 */

let sb: Sandbox;
let token: string;
let doc: any;
beforeAll(async () => {
  sb = await sandbox();
  token = await tokenFor(sb, 101);
  doc = (await http(sb, 'GET', '/_sandbox/openapi.json')).body;
});
afterAll(() => sb.close());

const ajv = new Ajv2020({ strict: false, allowUnionTypes: true });
addFormats.default(ajv);
const accepts = (schema: unknown, value: unknown): boolean => ajv.validate(schema as object, value);

const body = (path: string, method: string): any =>
  doc.paths[path][method].requestBody.content['application/json'].schema;
const query = (path: string, name: string): any =>
  doc.paths[path].get.parameters.find((p: any) => p.in === 'query' && p.name === name).schema;
/** A property of an object schema, through a nullable or optional wrapper. */
function property(schema: any, name: string): any {
  const found = schema.properties?.[name] ?? schema.anyOf?.map((s: any) => property(s, name)).find(Boolean);
  return found;
}

const BLANKS = ['', ' ', '   ', '\t\n', '\u00a0'];

describe('rules of a request in the document', () => {
  it('a blank search of the v3.1 recipe templates is refused by both', async () => {
    const search = query('/api/v3.1/automated-recipe-templates/', 'search');
    for (const blank of BLANKS) expect(accepts(search, blank), JSON.stringify(blank)).toBe(false);
    expect(accepts(search, ' spend ')).toBe(true);
    const refused = await http(sb, 'GET', '/api/v3.1/automated-recipe-templates/?search=%20%20', { token });
    expect(refused.status).toBe(400);
    const found = await http(sb, 'GET', '/api/v3.1/automated-recipe-templates/?search=%20a%20', { token });
    expect(found.status).toBe(200);
    // v3 takes a blank search as no filter.
    expect(accepts(query('/api/v3/automated-recipe-templates/', 'search'), ' ')).toBe(true);
  });

  it('a webhook address is an http(s) URL, and every address the document takes is one the sandbox takes', () => {
    const url = property(body('/api/v3/webhook_endpoints/', 'post'), 'url');
    const bad = [
      'ftp://x.com',
      'x.com',
      'https://',
      'https:// x.com',
      'http://a.1',
      'http://a:65536',
      'http://xn--zz/',
      'http://1.2.3.256/',
      'http://[::1]/',
      'http://[2001:db8::1]:8080/',
      'http://bücher.example/',
      'http://xn--bcher-kva.example/',
    ];
    const good = [
      'https://hooks.example.com/in?x=1',
      'http://localhost:8080/',
      'HTTPS://A.B.',
      'http://a-b.c',
      'http://127.0.0.1:9/',
    ];
    for (const v of bad) expect(accepts(url, v), v).toBe(false);
    for (const v of good) expect(accepts(url, v), v).toBe(true);
    for (const v of [...bad, ...good]) {
      const sandboxTakes = requests.webhookEndpointCreate.safeParse({
        url: v,
        event_types: ['account_enabled'],
      }).success;
      // The same verdict both ways: IPv6 and internationalized hosts are refused by both.
      expect(sandboxTakes, v).toBe(accepts(url, v));
    }
  });

  it('event types are the catalogue, on create and on change', async () => {
    expect(EVENT_TYPES).toHaveLength(90);
    for (const [path, method] of [
      ['/api/v3/webhook_endpoints/', 'post'],
      ['/api/v3/webhook_endpoints/{id}/', 'patch'],
    ] as const) {
      const types = property(body(path, method), 'event_types');
      expect(types.items.enum).toEqual([...EVENT_TYPES]);
      expect(accepts(types, ['account_enabled'])).toBe(true);
      expect(accepts(types, ['account_enabled', 'no_such_event'])).toBe(false);
      expect(accepts(types, [])).toBe(false);
    }
    const refused = await http(sb, 'POST', '/api/v3/webhook_endpoints/', {
      token,
      body: { url: 'https://hooks.example.com/', event_types: ['account_enabled', 'no_such_event'] },
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      detail: 'The request body is invalid.',
      'event_types[1]': ['"no_such_event" is not a valid event type.'],
    });
  });

  it('dates are YYYY-MM-DD of a day that exists: history start, recipe start, load run range', () => {
    const dates = [
      property(property(body('/api/v3.1/extracts/', 'post'), 'template_settings'), 'sync_historical_data'),
      property(body('/api/v3.1/automated-recipes/{id}/', 'put'), 'sync_from_date'),
      property(body('/api/v3/automated-recipes/{id}/', 'put'), 'sync_from_date'),
      property(body('/api/v3/loads/{id}/run', 'put'), 'date_from'),
      property(body('/api/v3/loads/{id}/run', 'put'), 'date_to'),
    ];
    for (const date of dates) {
      expect(date).toBeDefined();
      for (const v of ['2024-02-29', '2023-12-31', '0100-01-01']) expect(accepts(date, v), v).toBe(true);
      for (const v of ['2023-02-29', '2024-13-01', '2024-04-31', '24-01-01', '2024-1-1', '20240101', '0099-01-01', ''])
        expect(accepts(date, v), v).toBe(false);
    }
    // The document's verdict is the sandbox's, day by day (the days they disagree on: none).
    const date = dates[0];
    const disagree: string[] = [];
    for (let year = 0; year < 2500; year += 7)
      for (let month = 0; month <= 13; month++)
        for (let day = 0; day <= 32; day++) {
          const v = `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
          if (accepts(date, v) !== requests.isoDate.safeParse(v).success) disagree.push(v);
        }
    expect(disagree).toEqual([]);
  });

  it('the extract list filters by an integer or comma-separated integers', async () => {
    for (const name of ['connection_id', 'data_table_id']) {
      const filter = query('/api/v3/extracts', name);
      for (const v of ['7', '7,8', ' 7 , 8 ', '', ' ']) expect(accepts(filter, v), v).toBe(true);
      for (const v of ['x', '7,', '7,,8', '-7', '7.5']) expect(accepts(filter, v), v).toBe(false);
      expect((await http(sb, 'GET', `/api/v3/extracts?${name}=7,x`, { token })).status).toBe(400);
      expect((await http(sb, 'GET', `/api/v3/extracts?${name}=%207%20,8`, { token })).status).toBe(200);
    }
  });

  it('every title is refused blank, in every body that has one', () => {
    const titles: string[] = [];
    for (const [path, byMethod] of Object.entries(doc.paths as Record<string, Record<string, any>>))
      for (const [method, op] of Object.entries(byMethod)) {
        const schema = op.requestBody?.content['application/json'].schema;
        const title = schema && property(schema, 'title');
        if (!title) continue;
        titles.push(`${method} ${path}`);
        for (const blank of BLANKS)
          expect(accepts(title, blank), `${method} ${path} ${JSON.stringify(blank)}`).toBe(false);
        expect(accepts(title, 'Spend')).toBe(true);
      }
    expect(titles.length).toBeGreaterThanOrEqual(10);
    // The sandbox reports a blank title once, as empty.
    const blank = requests.workspaceTitle.safeParse({ title: '   ' });
    expect(blank.error?.issues).toHaveLength(1);
    expect(blank.error?.issues[0]).toMatchObject({ code: 'too_small' });
  });
});

describe('answers in the document', () => {
  it('every answer declares x-im-trace-id, required', async () => {
    expect(doc.components.headers.TraceId.required).toBe(true);
    for (const byMethod of Object.values(doc.paths as Record<string, Record<string, any>>))
      for (const op of Object.values(byMethod))
        for (const response of Object.values(op.responses as Record<string, any>))
          expect(response.headers['x-im-trace-id']).toEqual({ $ref: '#/components/headers/TraceId' });
    const res = await http(sb, 'GET', '/api/v3/no-such-path', { token });
    expect(res.headers.get('x-im-trace-id')).toMatch(/^[0-9a-f]{16}$/);
  });

  it('a page past the last of the external authentication links is an empty page, as the sandbox answers', async () => {
    const list = doc.paths['/api/v3/datasources/{datasource_name}/external-auth-links'].get;
    const page = list.parameters.find((p: any) => p.name === 'page');
    expect(page.description).toMatch(/^From 1; a page past the last is an empty page\./);
    const res = await http(sb, 'GET', '/api/v3/datasources/facebook/external-auth-links?page=999', { token });
    expect(res.status).toBe(200);
    expect(res.body.results).toEqual([]);
  });

  it('v3 build and resetup declare the bodies they answer with', () => {
    const build = doc.paths['/api/v3/automated-recipes/{id}/build/'].post.responses['200'];
    expect(build.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/BuildStartedV3' });
    expect(doc.components.schemas.BuildStartedV3.required).toEqual(['status', 'message']);
    const resetup = doc.paths['/api/v3/automated-recipes/{id}/resetup/'].post.responses['200'];
    expect(resetup.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ResetupStartedV3' });
    expect(doc.components.schemas.ResetupStartedV3.required).toEqual(['status', 'recipe_id']);
  });

  it('the iframe page is HTML', async () => {
    const page = doc.paths['/api/v3/iframe/'].get.responses['200'];
    expect(Object.keys(page.content)).toEqual(['text/html']);
    const link = await http(sb, 'POST', '/api/v3/get_iframe_url', { basic: true, body: { workspace_id: 101 } });
    expect(link.status).toBe(200);
    const url = new URL(link.body.url ?? link.body.iframe_url);
    const res = await http(sb, 'GET', `${url.pathname}${url.search}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
  });
});
