import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { request } from 'node:http';
import { PASSWORD, USERNAME, http, sandbox, tokenFor } from '../helpers.js';

/** Contract rules the sandbox once broke, checked over raw HTTP. */

let sb: Sandbox;
let token: string;
beforeAll(async () => {
  sb = await sandbox({ buildSeconds: 0 });
  token = await tokenFor(sb, 101);
});
afterAll(() => sb.close());

const SYSTEM_FIELDS = ['account_id', 'account_name', '__insert_date'];

describe('recipe metadata', () => {
  it('no template lists a system field in output_columns (v3.1 and v3)', async () => {
    const list = await http(sb, 'GET', '/api/v3.1/automated-recipe-templates/', { token });
    expect(list.body.count).toBeGreaterThan(0);
    for (const t of list.body.results) {
      for (const version of ['v3.1', 'v3']) {
        const detail = await http(sb, 'GET', `/api/${version}/automated-recipe-templates/${t.id}/`, { token });
        const names = (detail.body.output_columns ?? []).map((c: { name: string }) => c.name);
        expect(
          names.filter((n: string) => SYSTEM_FIELDS.includes(n)),
          `template ${t.id} (${version})`,
        ).toEqual([]);
      }
    }
  });
});

describe('validation codes', () => {
  it.each([
    ['template_id', { title: 'Paid media' }],
    ['title', { template_id: 4001 }],
  ])('a missing %s is `required` on create (v3.1)', async (field, body) => {
    const r = await http(sb, 'POST', '/api/v3.1/automated-recipes/', { token, body });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('validation_error');
    expect(r.body.details.fields).toContainEqual(expect.objectContaining({ field, code: 'required' }));
  });

  it('a wrong value stays `invalid`', async () => {
    const r = await http(sb, 'POST', '/api/v3.1/automated-recipes/', {
      token,
      body: { template_id: 'x', title: 'Paid media' },
    });
    expect(r.body.details.fields).toEqual([expect.objectContaining({ field: 'template_id', code: 'invalid' })]);
  });

  it('a missing connection_id or account id in a configuration is `required`', async () => {
    const created = await http(sb, 'POST', '/api/v3.1/automated-recipes/', {
      token,
      body: { template_id: 4002, title: 'Spend' },
    });
    expect(created.status).toBe(201);
    const r = await http(sb, 'PUT', `/api/v3.1/automated-recipes/${created.body.recipe_id}/`, {
      token,
      body: { data_sources: ['google_ads'], connections: [{ connection_data_source: 'google_ads', accounts: [{}] }] },
    });
    expect(r.status).toBe(400);
    expect(r.body.details.fields).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: 'connections[0].connection_id', code: 'required' }),
        expect.objectContaining({ field: 'connections[0].accounts[0].id', code: 'required' }),
      ]),
    );
  });
});

describe('errors before routing', () => {
  it('a malformed URL answers the envelope with a trace id (v3.1 recipes)', async () => {
    const r = await http(sb, 'GET', '/api/v3.1/automated-recipes/%ZZ/', { token });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ code: 'bad_request', message: expect.any(String), details: {} });
    expect(r.headers.get('x-im-trace-id')).toMatch(/^[0-9a-f]{16}$/);
  });

  it('a malformed URL elsewhere answers {detail} with a trace id', async () => {
    const r = await http(sb, 'GET', '/api/v3/extracts/%ZZ', { token });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ detail: expect.any(String) });
    expect(r.headers.get('x-im-trace-id')).toBeTruthy();
  });

  it('a body that is not JSON by its content type is 415 bad_request; nothing is created', async () => {
    const before = sb.store.state.recipes.length;
    const r = await http(sb, 'POST', '/api/v3.1/automated-recipes/', {
      token,
      rawBody: '{"template_id": 4001, "title": "x"}',
      headers: { 'content-type': 'text/plain' },
    });
    expect(r.status).toBe(415);
    expect(r.body).toEqual({ code: 'bad_request', message: expect.any(String), details: {} });
    expect(sb.store.state.recipes).toHaveLength(before);
  });
});

/** A request with a forged Host header (fetch always sends the real one). */
function withHost(
  method: string,
  path: string,
  host: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const text = body === undefined ? undefined : JSON.stringify(body);
    const req = request(
      {
        host: '127.0.0.1',
        port: sb.port,
        method,
        path,
        headers: { ...headers, host, ...(text ? { 'content-type': 'application/json' } : {}) },
      },
      (res) => {
        let data = '';
        res.on('data', (d) => (data += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(data) }));
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

describe('absolute URLs come from the sandbox, not the Host header', () => {
  it('next links of a list', async () => {
    const r = await withHost('GET', '/api/v3.1/connections/1001/accounts/?page_size=2', 'evil.example', {
      authorization: `Bearer ${token}`,
    });
    expect(r.status).toBe(200);
    expect(r.body.next).toBe(`${sb.url}/api/v3.1/connections/1001/accounts/?page_size=2&page=2`);
  });

  it('name the configured host, as the sandbox prints its address', async () => {
    const named = await sandbox({ host: 'localhost' });
    try {
      const r = await http(named, 'GET', '/api/v3/workspaces?page_size=1', { basic: true });
      expect(named.url).toMatch(/^http:\/\/localhost:\d+$/);
      expect(r.body.next).toBe(`${named.url}/api/v3/workspaces?page_size=1&page=2`);
    } finally {
      await named.close();
    }
  });

  it('the iframe URL', async () => {
    const basic = `Basic ${Buffer.from(`${USERNAME}:${PASSWORD}`).toString('base64')}`;
    const r = await withHost(
      'POST',
      '/api/v3/get_iframe_url',
      'evil.example:8443',
      { authorization: basic },
      { workspace_id: 101 },
    );
    expect(r.status).toBe(200);
    expect(r.body.url.startsWith(`${sb.url}/api/v3/iframe/?code=`)).toBe(true);
  });
});

describe('workspaces equipped by the control', () => {
  it('accept a merge update of their S3 connection, as the demo workspaces do', async () => {
    const ws = await http(sb, 'POST', '/api/v3/workspaces', { basic: true, body: { title: 'Fleet one' } });
    expect(
      (await http(sb, 'POST', '/_sandbox/recipes/equip-workspace', { body: { workspace_id: ws.body.id } })).status,
    ).toBe(200);
    for (const wsId of [101, ws.body.id]) {
      const t = await tokenFor(sb, wsId);
      const list = await http(sb, 'GET', '/api/v3/destinations/s3/connections', { token: t });
      const dc = list.body.results[0];
      const r = await http(sb, 'PUT', `/api/v3/destinations/s3/connections/${dc.id}`, {
        token: t,
        body: { connection_params: { region: 'eu-west-1' } },
      });
      expect([wsId, r.status]).toEqual([wsId, 200]);
      expect(r.body.connection_params.region).toBe('eu-west-1');
    }
  });
});

describe('destination that hosts recipes but cannot report tables', () => {
  it('answers the extraction check with 501 destination_check_unsupported, every time (v3.1 and v3)', async () => {
    const created = await http(sb, 'POST', '/api/v3.1/automated-recipes/', {
      token,
      body: { template_id: 4001, title: 'Paid media' },
    });
    expect(created.status).toBe(201);
    const id = created.body.recipe_id;
    const knob = await http(sb, 'PATCH', '/_sandbox/destinations/s3', { body: { reports_tables: false } });
    expect(knob.status).toBe(200);
    try {
      for (let i = 0; i < 2; i++) {
        const r = await http(sb, 'GET', `/api/v3.1/automated-recipes/${id}/extractions/`, { token });
        expect([r.status, r.body.code, r.body.details]).toEqual([501, 'destination_check_unsupported', {}]);
      }
      expect((await http(sb, 'GET', `/api/v3/automated-recipes/${id}/extractions/`, { token })).status).toBe(501);
      // It still hosts recipes: reads and deletes go on.
      expect((await http(sb, 'GET', `/api/v3.1/automated-recipes/${id}/`, { token })).status).toBe(200);
    } finally {
      await http(sb, 'PATCH', '/_sandbox/destinations/s3', { body: { reports_tables: true } });
    }
    expect((await http(sb, 'GET', `/api/v3.1/automated-recipes/${id}/extractions/`, { token })).status).toBe(200);
  });

  it('refuses an unknown destination or a value that is not a boolean', async () => {
    expect(
      (await http(sb, 'PATCH', '/_sandbox/destinations/nowhere', { body: { reports_tables: false } })).status,
    ).toBe(404);
    expect((await http(sb, 'PATCH', '/_sandbox/destinations/s3', { body: { reports_tables: 'no' } })).status).toBe(400);
  });
});
