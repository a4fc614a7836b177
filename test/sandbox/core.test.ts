import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { http, sandbox, tempDir, tokenFor, waitUntil } from '../helpers.js';

let sb: Sandbox;
beforeEach(async () => {
  sb = await sandbox({ tokenTtl: 60 });
});
afterEach(() => sb.close());

describe('sandbox: authentication', () => {
  it('answers 401 {detail} without or with wrong Basic credentials, with a trace id', async () => {
    const none = await http(sb, 'GET', '/api/v3/workspaces');
    expect(none.status).toBe(401);
    expect(typeof none.body.detail).toBe('string');
    expect(none.headers.get('x-im-trace-id')).toMatch(/^[0-9a-f]{16}$/);
    const wrong = await http(sb, 'GET', '/api/v3/workspaces', { basic: ['agency@sandbox.local', 'nope'] });
    expect(wrong.status).toBe(401);
    const inactive = await http(sb, 'GET', '/api/v3/workspaces', { basic: ['former@sandbox.local', 'sandbox'] });
    expect(inactive.status).toBe(401);
  });

  it('issues tokens bound to one workspace; 400 for a bad or unknown workspace_id', async () => {
    expect((await http(sb, 'POST', '/api/v3/token', { basic: true, body: {} })).status).toBe(400);
    expect((await http(sb, 'POST', '/api/v3/token', { basic: true, body: { workspace_id: 'x' } })).status).toBe(400);
    expect((await http(sb, 'POST', '/api/v3/token', { basic: true, body: { workspace_id: 999 } })).status).toBe(400);
    expect((await http(sb, 'POST', '/api/v3/token', { body: { workspace_id: 101 } })).status).toBe(401);
    const token = await tokenFor(sb, 101);
    expect((await http(sb, 'GET', '/api/v3/workspaces/101/dashboards', { token })).status).toBe(200);
    expect((await http(sb, 'GET', '/api/v3/workspaces/102/dashboards', { token })).status).toBe(404);
  });

  it('expires a token --token-ttl after its last use, and each use renews it', async () => {
    const token = await tokenFor(sb, 101);
    const advance = (s: number) => http(sb, 'POST', '/_sandbox/clock', { body: { advance_seconds: s } });
    await advance(50);
    expect((await http(sb, 'GET', '/api/v3/workspaces/101/dashboards', { token })).status).toBe(200);
    await advance(50); // 100 s after issue, 50 s after last use
    expect((await http(sb, 'GET', '/api/v3/workspaces/101/dashboards', { token })).status).toBe(200);
    await advance(61);
    const expired = await http(sb, 'GET', '/api/v3/workspaces/101/dashboards', { token });
    expect(expired.status).toBe(401);
    expect(expired.body.detail).toMatch(/expired/i);
  });

  it('accepts a cookie session with X-IM-WORKSPACE-ID', async () => {
    const { body } = await http(sb, 'POST', '/_sandbox/sessions', { body: { username: 'agency@sandbox.local' } });
    const ok = await http(sb, 'GET', '/api/v3/workspaces/102/dashboards', {
      headers: { cookie: `dts_session_id=${body.session_id}`, 'x-im-workspace-id': '102' },
    });
    expect(ok.status).toBe(200);
    const noWs = await http(sb, 'GET', '/api/v3/workspaces/102/dashboards', {
      headers: { cookie: `dts_session_id=${body.session_id}` },
    });
    expect(noWs.status).toBe(401);
  });
});

describe('sandbox: workspaces, agency recipes, dashboards, iframe', () => {
  it('pages v3 lists: full next/previous URLs, silent page_size cap, 404 past the end', async () => {
    const page = await http(sb, 'GET', '/api/v3/workspaces?page_size=2', { basic: true });
    expect(page.body.count).toBe(3);
    expect(page.body.next).toBe(`${sb.url}/api/v3/workspaces?page_size=2&page=2`);
    expect(page.body.previous).toBeNull();
    const second = await http(sb, 'GET', '/api/v3/workspaces?page_size=2&page=2', { basic: true });
    expect(second.body.results.map((w: any) => w.id)).toEqual([103]);
    expect(second.body.previous).toBe(`${sb.url}/api/v3/workspaces?page_size=2&page=1`);
    const capped = await http(sb, 'GET', '/api/v3/workspaces?page_size=100000', { basic: true });
    expect(capped.body.results).toHaveLength(3);
    const past = await http(sb, 'GET', '/api/v3/workspaces?page=3', { basic: true });
    expect(past.status).toBe(404);
    expect(past.body).toEqual({ detail: 'Invalid page.' });
  });

  it('creates (201), reads and renames workspaces; 400 for an empty or too long title', async () => {
    const created = await http(sb, 'POST', '/api/v3/workspaces', { basic: true, body: { title: 'New one' } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.any(Number), title: 'New one' });
    expect(
      (await http(sb, 'PUT', `/api/v3/workspaces/${created.body.id}`, { basic: true, body: { title: '' } })).status,
    ).toBe(400);
    expect(
      (
        await http(sb, 'PUT', `/api/v3/workspaces/${created.body.id}`, {
          basic: true,
          body: { title: 'x'.repeat(256) },
        })
      ).status,
    ).toBe(400);
    const renamed = await http(sb, 'PUT', `/api/v3/workspaces/${created.body.id}`, {
      basic: true,
      body: { title: 'Renamed' },
    });
    expect(renamed.body.title).toBe('Renamed');
    expect(
      sb.store.state.events.some((e) => e.type === 'workspace_created' && e.workspace_id === created.body.id),
    ).toBe(true);
  });

  it('answers malformed JSON with 400 and an unsupported method with 405', async () => {
    const bad = await http(sb, 'POST', '/api/v3/workspaces', { basic: true, rawBody: '{"title":' });
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toMatch(/not valid JSON/);
    const del = await http(sb, 'DELETE', '/api/v3/workspaces', { basic: true });
    expect(del.status).toBe(405);
    expect(del.headers.get('allow')).toContain('GET');
  });

  it('enables an agency recipe (204, no trailing slash); 404 unknown recipe or workspace; 403 when the pipeline is off', async () => {
    expect(
      (await http(sb, 'POST', '/api/v3/workspaces/101/recipes', { basic: true, body: { recipe_id: 501 } })).status,
    ).toBe(204);
    expect(
      (await http(sb, 'POST', '/api/v3/workspaces/101/recipes', { basic: true, body: { recipe_id: 999 } })).status,
    ).toBe(404);
    expect(
      (await http(sb, 'POST', '/api/v3/workspaces/999/recipes', { basic: true, body: { recipe_id: 501 } })).status,
    ).toBe(404);
    expect(
      (await http(sb, 'POST', '/api/v3/workspaces/101/recipes/', { basic: true, body: { recipe_id: 501 } })).status,
    ).toBe(404);
    await http(sb, 'PATCH', '/_sandbox/agency', { body: { recipe_pipeline: false } });
    const off = await http(sb, 'POST', '/api/v3/workspaces/101/recipes', { basic: true, body: { recipe_id: 502 } });
    await http(sb, 'PATCH', '/_sandbox/agency', { body: { recipe_pipeline: true } });
    expect(off.status).toBe(403);
    const dashboards = await http(sb, 'GET', '/api/v3/workspaces/101/dashboards', { basic: true });
    expect(dashboards.body.results).toEqual([{ id: 9001, title: 'Paid Media Overview', type: 'DATA', recipe_id: 501 }]);
    expect((await http(sb, 'GET', '/api/v3/workspaces/999/dashboards', { basic: true })).status).toBe(404);
    expect((await http(sb, 'GET', '/api/v3/workspaces/101/dashboards')).status).toBe(401);
  });

  it('answers the slashless agency recipe list with 301 to the slash path', async () => {
    const r = await http(sb, 'GET', '/api/v3/recipes?page=1', { basic: true });
    expect(r.status).toBe(301);
    expect(r.headers.get('location')).toBe('/api/v3/recipes/?page=1');
    expect((await http(sb, 'GET', '/api/v3/recipes/', { basic: true })).body.count).toBe(3);
  });

  it('escapes the path in the 301 page, and the Location header still names it with the slash', async () => {
    // Sent as is (fetch would percent-encode the quotes and brackets).
    const path = '/api/v3.1/automated-recipes/1"onmouseover="alert(1)"<b>x';
    const r = await new Promise<{ status: number; location: string | undefined; text: string }>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port: sb.port, path: `${path}?a=<i>`, method: 'GET' }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode!, location: res.headers.location, text }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(r.status).toBe(301);
    expect(r.location).toBe(`${path}/?a=<i>`);
    expect(r.text).toBe(
      '<a href="/api/v3.1/automated-recipes/1&#34;onmouseover=&#34;alert(1)&#34;&#60;b&#62;x/?a=&#60;i&#62;">Moved Permanently</a>',
    );
  });

  it('returns an iframe URL of the form {base_url}/api/v3/iframe/?code&type&name', async () => {
    const r = await http(sb, 'POST', '/api/v3/get_iframe_url?show_accounts=false&show_accounts_only_on_auth=true', {
      basic: true,
      body: { workspace_id: 101, type: 'datasource', name: 'google_ads' },
    });
    expect(r.status).toBe(200);
    const u = new URL(r.body.url);
    expect(`${u.origin}${u.pathname}`).toBe(`${sb.url}/api/v3/iframe/`);
    expect([...u.searchParams.keys()]).toEqual(['code', 'type', 'name']);
    expect(sb.store.state.iframe_sessions[u.searchParams.get('code')!]!.options).toEqual({
      show_accounts: false,
      show_accounts_only_on_auth: true,
    });
    expect(
      (await http(sb, 'POST', '/api/v3/get_iframe_url', { basic: true, body: { workspace_id: 101, type: 'x' } }))
        .status,
    ).toBe(400);
    expect(
      (
        await http(sb, 'POST', '/api/v3/get_iframe_url?show_accounts=maybe', {
          basic: true,
          body: { workspace_id: 101 },
        })
      ).status,
    ).toBe(400);
    expect((await http(sb, 'POST', '/api/v3/get_iframe_url', { body: { workspace_id: 101 } })).status).toBe(401);
  });
});

describe('sandbox: error envelope under the v3.1 recipe prefix', () => {
  it('answers unknown paths there with {code: not_found, message, details}', async () => {
    const token = await tokenFor(sb, 101);
    const r = await http(sb, 'GET', '/api/v3.1/automated-recipes-unknown/', { token });
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ code: 'not_found', message: expect.any(String), details: {} });
  });
});

describe('sandbox: knobs and persistence', () => {
  it('--fail-rate answers 503 with Retry-After and does nothing', async () => {
    const failing = await sandbox({ failRate: 1, retryAfter: 7 });
    const before = failing.store.state.workspaces.length;
    const r = await http(failing, 'POST', '/api/v3/workspaces', { basic: true, body: { title: 'x' } });
    expect(r.status).toBe(503);
    expect(r.headers.get('retry-after')).toBe('7');
    expect(failing.store.state.workspaces.length).toBe(before);
    await failing.close();
  });

  it('--reset-rate carries the request out, then drops the connection', async () => {
    const dropping = await sandbox({ resetRate: 1 });
    const before = dropping.store.state.workspaces.length;
    await expect(http(dropping, 'POST', '/api/v3/workspaces', { basic: true, body: { title: 'x' } })).rejects.toThrow();
    expect(dropping.store.state.workspaces.length).toBe(before + 1);
    await dropping.close();
  });

  it('--latency delays every answer by that much of the sandbox clock', async () => {
    const slow = await sandbox({ latencyMs: 80 });
    let answered = false;
    const answer = http(slow, 'GET', '/api/v3/workspaces', { basic: true }).finally(() => (answered = true));
    // The request waits on the clock; it is answered once the clock has moved 80 ms.
    await waitUntil(() => slow.store.clock.pending > 0, { what: 'the request to wait on the clock' });
    slow.store.clock.advance(79);
    await http(slow, 'GET', '/_sandbox/health');
    expect(answered).toBe(false);
    slow.store.clock.advance(1);
    expect((await answer).status).toBe(200);
    await slow.close();
  });

  it('--state keeps the state across restarts', async () => {
    const file = join(tempDir('edp-state-').dir, 'state.json');
    const first = await sandbox({ stateFile: file });
    await http(first, 'POST', '/api/v3/workspaces', { basic: true, body: { title: 'Persisted' } });
    await first.close();
    const second = await sandbox({ stateFile: file });
    const list = await http(second, 'GET', '/api/v3/workspaces', { basic: true });
    expect(list.body.results.map((w: any) => w.title)).toContain('Persisted');
    await second.close();
  });

  it('builds the same demo data for the same seed', async () => {
    const a = await sandbox({ seed: 5 });
    const b = await sandbox({ seed: 5 });
    const shape = (s: Sandbox) => s.store.state.accounts.map((x) => [x.id, x.account_id, x.workspace_id, x.is_active]);
    expect(shape(a)).toEqual(shape(b));
    // the same remote account ids repeat across workspaces under different internal ids
    const remote = a.store.state.accounts.filter((x) => x.account_id === a.store.state.accounts[0]!.account_id);
    expect(new Set(remote.map((x) => x.workspace_id)).size).toBe(3);
    expect(new Set(remote.map((x) => x.id)).size).toBe(3);
    await Promise.all([a.close(), b.close()]);
  });
});

describe('sandbox: validation errors', () => {
  it('tells a missing field (required) from a wrong one (invalid), with field paths', async () => {
    const { parseBody } = await import('../../src/sandbox/http.js');
    const { z } = await import('zod');
    const schema = z.object({
      title: z.string().min(1).max(5),
      connections: z.array(z.object({ accounts: z.array(z.object({ id: z.number() })).min(1) })),
    });
    try {
      parseBody(schema, {
        title: 'much too long',
        connections: [{ accounts: [{ id: 1 }, { id: 'x' }] }, { accounts: [] }, 'bare'],
      });
      expect.unreachable();
    } catch (err: any) {
      expect(err.code).toBe('validation_error');
      expect(err.details.fields.map((f: any) => `${f.field}:${f.code}`)).toEqual([
        'title:max_length',
        'connections[0].accounts[1].id:invalid',
        'connections[1].accounts:empty',
        'connections[2]:invalid',
      ]);
    }
    try {
      parseBody(schema, {});
    } catch (err: any) {
      expect(err.details.fields.map((f: any) => `${f.field}:${f.code}`)).toEqual([
        'title:required',
        'connections:required',
      ]);
    }
  });
});
