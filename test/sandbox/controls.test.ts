import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { cli, http, sandbox, tokenFor, useSandbox } from '../helpers.js';

/** A request with a Host header of our choosing (fetch does not let one set it). */
function rawGet(sb: Sandbox, path: string, headers: Record<string, string>): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port: sb.port, path, method: 'GET', headers, setHost: false },
      (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : undefined }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('sandbox controls on loopback', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await sandbox();
  });
  afterAll(() => sb.close());

  it('answer requests addressed to a loopback name, with any port', async () => {
    for (const host of [
      `127.0.0.1:${sb.port}`,
      `localhost:${sb.port}`,
      'localhost',
      `[::1]:${sb.port}`,
      'LOCALHOST:80',
    ]) {
      expect((await rawGet(sb, '/_sandbox/health', { host })).status, host).toBe(200);
    }
  });

  it('refuse any other Host with 403 in the {detail} envelope (a DNS-rebound page cannot read the state)', async () => {
    for (const host of [
      `attacker.example:${sb.port}`,
      'attacker.example',
      `localhost.attacker.example:${sb.port}`,
      `192.168.1.20:${sb.port}`,
    ]) {
      const r = await rawGet(sb, '/_sandbox/state', { host });
      expect(r.status, host).toBe(403);
      expect(r.body).toEqual({ detail: expect.stringContaining('localhost, 127.0.0.1 or [::1]') });
    }
    // Every control, including those the areas add, unknown ones, and percent-encoded spellings.
    for (const path of [
      '/_sandbox/events',
      '/_sandbox/exports',
      '/_sandbox/webhook-deliveries',
      '/_sandbox/nothing-here',
      '/%5Fsandbox/state',
      '/%5fsandbox/health',
      '/_sandbox/%73tate',
    ]) {
      expect((await rawGet(sb, path, { host: 'attacker.example' })).status, path).toBe(403);
    }
  });

  it('refuse a Host that only starts or ends like a loopback name', async () => {
    for (const host of [
      `127.0.0.1:1@attacker.example`,
      '[::1]attacker.example',
      `[::1]:${sb.port}x`,
      'localhost.',
      `localhost:${sb.port}:1`,
      'localhost:99999',
      'localhost:',
      `127.0.0.1 :${sb.port}`,
    ]) {
      const r = await rawGet(sb, '/_sandbox/state', { host });
      expect(r.status, host).toBe(403);
      expect(r.body.detail).toContain('localhost, 127.0.0.1 or [::1]');
    }
  });

  it('refuse requests a web page of another origin sends, another port of this machine included (Origin)', async () => {
    const host = `127.0.0.1:${sb.port}`;
    for (const origin of [
      'https://attacker.example',
      'null',
      `http://localhost:${sb.port}`,
      `http://127.0.0.1:${sb.port + 1}`,
      'http://127.0.0.1',
      `https://127.0.0.1:${sb.port}`,
      `http://127.0.0.1:${sb.port}.attacker.example`,
    ]) {
      const r = await rawGet(sb, '/_sandbox/state', { host, origin });
      expect(r.status, origin).toBe(403);
      expect(r.body.detail).toBe(
        `Sandbox controls answer only the sandbox's own pages (http://127.0.0.1:${sb.port}) and programs, not web pages of other origins.`,
      );
    }
    // The sandbox's own pages (the inspector's forms), and programs, which name no origin.
    expect((await rawGet(sb, '/_sandbox/health', { host, origin: `http://127.0.0.1:${sb.port}` })).status).toBe(200);
    expect(
      (await rawGet(sb, '/_sandbox/health', { host: `localhost:${sb.port}`, origin: `http://localhost:${sb.port}` }))
        .status,
    ).toBe(200);
    expect((await rawGet(sb, '/_sandbox/health', { host: 'localhost', origin: 'http://localhost' })).status).toBe(200);
    expect((await rawGet(sb, '/_sandbox/health', { host })).status).toBe(200);
  });

  it('refuse a change a browser marks as sent from another site, even without Origin', async () => {
    const res = await fetch(`${sb.url}/_sandbox/faults`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-site' },
      body: JSON.stringify({ fail_rate: 1 }),
    });
    expect(res.status).toBe(403);
    expect(sb.store.opts.failRate).toBe(0);
    // A read from a typed address, or a change from the sandbox's own page, is the operator's.
    expect((await fetch(`${sb.url}/_sandbox/health`, { headers: { 'sec-fetch-site': 'cross-site' } })).status).toBe(
      200,
    );
    const own = await fetch(`${sb.url}/_sandbox/faults`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' },
      body: JSON.stringify({ retry_after: 30 }),
    });
    expect(own.status).toBe(200);
  });

  it('forbid framing their answers by a page of another origin', async () => {
    for (const path of ['/_sandbox/', '/_sandbox/embed-example', '/_sandbox/state']) {
      const r = await fetch(`${sb.url}${path}`);
      expect(r.headers.get('content-security-policy'), path).toBe("frame-ancestors 'self'");
      expect(r.headers.get('x-frame-options'), path).toBe('SAMEORIGIN');
    }
    const refused = await rawGet(sb, '/_sandbox/', { host: 'attacker.example' });
    expect(refused.status).toBe(403);
  });

  it('leave the service API to its own authentication', async () => {
    expect((await rawGet(sb, '/api/v3/workspaces', { host: 'attacker.example' })).status).toBe(401);
  });
});

describe('sandbox controls with a control token', () => {
  const TOKEN = 'control-token-for-tests-0123456789';
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await sandbox({ controlToken: TOKEN });
  });
  afterAll(() => sb.close());

  it('need the token in X-Sandbox-Token, and then answer any Host', async () => {
    const none = await http(sb, 'GET', '/_sandbox/state');
    expect(none.status).toBe(403);
    expect(none.body.detail).toMatch(/x-sandbox-token/i);
    expect((await http(sb, 'GET', '/_sandbox/state', { headers: { 'x-sandbox-token': `${TOKEN}x` } })).status).toBe(
      403,
    );
    expect((await http(sb, 'GET', '/_sandbox/health', { headers: { 'x-sandbox-token': TOKEN } })).status).toBe(200);
    expect(
      (await rawGet(sb, '/_sandbox/health', { host: 'sandbox.internal:4010', 'x-sandbox-token': TOKEN })).status,
    ).toBe(200);
  });
});

describe('sandbox listening beyond loopback', () => {
  it('generates a control token that the controls require', async () => {
    const sb = await sandbox({ host: '0.0.0.0' });
    try {
      const token = sb.store.opts.controlToken!;
      expect(token).toMatch(/^[\w-]{32}$/);
      const local = { ...sb, url: `http://127.0.0.1:${sb.port}` };
      expect((await http(local, 'GET', '/_sandbox/state')).status).toBe(403);
      expect((await http(local, 'GET', '/_sandbox/state', { headers: { 'x-sandbox-token': token } })).status).toBe(200);
    } finally {
      await sb.close();
    }
  });

  it('edp sandbox --host 0.0.0.0 prints the token once and warns that the network can reach it', async () => {
    const stopped = AbortSignal.abort();
    const r = await cli(undefined, ['sandbox', '--host', '0.0.0.0', '--port', '0'], { signal: stopped });
    expect(r.code).toBe(0);
    const token = /^Control token: (\S+)$/m.exec(r.stdout)?.[1];
    expect(token).toMatch(/^[\w-]{32}$/);
    expect(r.stdout.split(token!).length).toBe(2);
    expect(r.stderr).toMatch(
      /listens on 0\.0\.0\.0: anyone who can reach this machine over the network can use it with the demo credentials \(agency@sandbox\.local \/ sandbox\)/,
    );
    expect(r.stderr).toContain('X-Sandbox-Token');
  });

  it('edp sandbox on loopback neither prints a token nor warns', async () => {
    const r = await cli(undefined, ['sandbox', '--port', '0'], { signal: AbortSignal.abort() });
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('Control token');
    expect(r.stderr).not.toContain('network');
  });

  it('takes the token from --control-token or EDP_SANDBOX_TOKEN, and refuses a short one (exit 2)', async () => {
    const given = await cli(
      undefined,
      ['sandbox', '--host', '0.0.0.0', '--port', '0', '--control-token', 'a-long-enough-control-token'],
      { signal: AbortSignal.abort() },
    );
    expect(given.code).toBe(0);
    expect(given.stdout).not.toContain('a-long-enough-control-token');
    // Refused before start (an aborted run would exit 130 instead).
    const short = await cli(undefined, ['sandbox', '--port', '0', '--control-token', 'short']);
    expect(short.code).toBe(2);
    expect(short.stderr).toContain('--control-token must be at least 16 printable characters');
    const env = await cli(undefined, ['sandbox', '--port', '0'], {
      env: { EDP_SANDBOX_TOKEN: 'bad token with spaces' },
    });
    expect(env.code).toBe(2);
    expect(env.stderr).toContain('EDP_SANDBOX_TOKEN');
  });
});

describe('sandbox state controls', () => {
  const t = useSandbox();

  it('PATCH /_sandbox/accounts/{id} renames an account or switches it off, and refuses anything else (400)', async () => {
    const { sb } = t;
    const renamed = await http(sb, 'PATCH', '/_sandbox/accounts/20001', { body: { title: 'Renamed account' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id: 20001, title: 'Renamed account', is_active: true });
    const token = await tokenFor(sb, 101);
    const listed = await http(sb, 'GET', '/api/v3/connections/1001/accounts', { token });
    expect(JSON.stringify(listed.body)).toContain('Renamed account');
    for (const body of [{}, { title: '' }, { is_active: 'no' }]) {
      expect((await http(sb, 'PATCH', '/_sandbox/accounts/20001', { body })).status).toBe(400);
    }
    expect((await http(sb, 'PATCH', '/_sandbox/accounts/999999', { body: { title: 'x' } })).status).toBe(404);
  });

  it('PATCH /_sandbox/external-auth-links/{id} serves a status the contract does not list, and null the real one', async () => {
    const { sb } = t;
    const token = await tokenFor(sb, 101);
    const created = await http(sb, 'POST', '/api/v3/datasources/google_ads/external-auth-links', {
      token,
      body: { to_emails: ['someone@client.com'], send_email: false },
    });
    expect(created.status).toBe(201);
    const id = created.body[0].id;
    const control = `/_sandbox/external-auth-links/${id}`;
    expect((await http(sb, 'PATCH', control, { body: { served_status: 'quarantined' } })).body.status).toBe(
      'quarantined',
    );
    expect((await http(sb, 'PATCH', control, { body: { served_status: null } })).body.status).toBe('not_used');
    expect((await http(sb, 'PATCH', control, { body: { served_status: 5 } })).status).toBe(400);
    // The served status is only shown: a link served as quarantined still revokes as the unused link it is.
    await http(sb, 'PATCH', control, { body: { served_status: 'quarantined' } });
    const revoked = await http(sb, 'POST', `/api/v3/datasources/google_ads/external-auth-links/${id}/revoke`, {
      token,
    });
    expect(revoked.status).toBe(200);
    expect(revoked.body.revoked_at).not.toBeNull();
  });
});
