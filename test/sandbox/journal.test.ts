import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { RequestJournal } from '../../src/sandbox/journal.js';
import { PASSWORD, http, sandbox, tokenFor } from '../helpers.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox();
});
afterAll(() => sb.close());

async function journal(query = ''): Promise<any[]> {
  const r = await http(sb, 'GET', `/_sandbox/requests${query}`);
  expect(r.status).toBe(200);
  return r.body.results;
}

describe('request journal', () => {
  it('records method, path, status, auth scheme, workspace and trace id, never the secret', async () => {
    expect((await http(sb, 'DELETE', '/_sandbox/requests')).status).toBe(204);
    const token = await tokenFor(sb, 102);
    const list = await http(sb, 'GET', '/api/v3.1/automated-recipes/?state=nope', { token });
    const anonymous = await http(sb, 'GET', '/api/v3/workspaces');
    const session = (await http(sb, 'POST', '/_sandbox/sessions', { body: { username: 'agency@sandbox.local' } })).body
      .session_id;
    await http(sb, 'GET', '/api/v3/extracts', {
      headers: { cookie: `dts_session_id=${session}`, 'x-im-workspace-id': '103' },
    });

    const entries = await journal();
    expect(entries.map((e) => [e.method, e.path, e.status, e.auth, e.workspace_id])).toEqual([
      ['POST', '/api/v3/token', 200, 'basic', 102],
      ['GET', '/api/v3.1/automated-recipes/', 400, 'bearer', 102],
      ['GET', '/api/v3/workspaces', 401, 'none', null],
      ['GET', '/api/v3/extracts', 200, 'cookie', 103],
    ]);
    expect(entries[1]).toMatchObject({ query: 'state=nope', trace_id: list.headers.get('x-im-trace-id') });
    expect(entries[2].trace_id).toBe(anonymous.headers.get('x-im-trace-id'));
    expect(entries.every((e) => typeof e.time === 'string' && e.seq > 0)).toBe(true);
    const text = JSON.stringify(entries);
    expect(text).not.toContain(token);
    expect(text).not.toContain(session);
    expect(text).not.toContain(Buffer.from(`agency@sandbox.local:${PASSWORD}`).toString('base64'));
  });

  it('leaves controls out and keeps requests answered before routing', async () => {
    await http(sb, 'DELETE', '/_sandbox/requests');
    await http(sb, 'GET', '/_sandbox/health');
    await http(sb, 'GET', '/api/v3.1/automated-recipes/%ZZ/');
    const entries = await journal();
    expect(entries.map((e) => [e.path, e.status])).toEqual([['/api/v3.1/automated-recipes/%ZZ/', 400]]);
    expect(entries[0].trace_id).toMatch(/^[0-9a-f]{16}$/);
  });

  it('?limit= keeps the newest entries; a bad limit is 400; DELETE clears', async () => {
    await http(sb, 'DELETE', '/_sandbox/requests');
    for (const p of ['/api/v3/a', '/api/v3/b', '/api/v3/c']) await http(sb, 'GET', p);
    expect((await journal('?limit=2')).map((e) => e.path)).toEqual(['/api/v3/b', '/api/v3/c']);
    expect((await http(sb, 'GET', '/_sandbox/requests?limit=0')).status).toBe(400);
    expect((await http(sb, 'GET', '/_sandbox/requests?limit=x')).status).toBe(400);
    await http(sb, 'DELETE', '/_sandbox/requests');
    expect(await journal()).toEqual([]);
  });
});

describe('RequestJournal', () => {
  it('is a bounded ring: the oldest entries go first', () => {
    const j = new RequestJournal(3);
    for (let i = 1; i <= 5; i++) {
      j.recordAnswered({
        seq: 0,
        at: 0,
        method: 'GET',
        url: `/api/v3/${i}`,
        status: 200,
        auth: 'none',
        workspace_id: null,
        trace_id: null,
      });
    }
    expect(j.list().map((e) => [e.seq, e.path])).toEqual([
      [3, '/api/v3/3'],
      [4, '/api/v3/4'],
      [5, '/api/v3/5'],
    ]);
  });
});
