import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { http, sandbox, tokenFor } from '../helpers.js';

const DAY = 24 * 3600;

let sb: Sandbox;
const tokens = new Map<number, string>();
async function call(method: string, path: string, ws = 101, body?: unknown) {
  if (!tokens.has(ws)) tokens.set(ws, await tokenFor(sb, ws));
  return http(sb, method, path, { token: tokens.get(ws)!, ...(body !== undefined ? { body } : {}) });
}
const create = (body: unknown, ws = 101, ds = 'google_ads') =>
  call('POST', `/api/v3/datasources/${ds}/external-auth-links`, ws, body);
const revoke = (id: number, ws = 101, ds = 'google_ads') =>
  call('POST', `/api/v3/datasources/${ds}/external-auth-links/${id}/revoke`, ws);
const linkCount = () => sb.store.state.external_auth_links.length;
/** Moving the clock days ahead expires tokens too: forget them. */
async function advance(seconds: number) {
  await http(sb, 'POST', '/_sandbox/clock', { body: { advance_seconds: seconds } });
  tokens.clear();
}

beforeEach(async () => {
  sb = await sandbox();
  tokens.clear();
});
afterEach(() => sb.close());

describe('creating links', () => {
  it('creates one link per address (201), not used, expiring in 14 days', async () => {
    const r = await create({ to_emails: ['a@example.com', 'b@example.com', 'A@example.com'], send_email: false });
    expect(r.status).toBe(201);
    expect(r.body.map((l: any) => [l.email, l.status])).toEqual([
      ['a@example.com', 'not_used'],
      ['b@example.com', 'not_used'],
    ]);
    const l = r.body[0];
    expect(Date.parse(l.expires_at) - Date.parse(l.created_at)).toBe(14 * DAY * 1000);
    expect(l).toMatchObject({
      datasource_name: 'google_ads',
      send_email: false,
      requested_by: null,
      inviter_title: 'Sandbox Data Hub',
    });
    expect(l.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/connect\/[0-9a-f]+$/);
  });

  it('e-mails the links only with send_email true', async () => {
    const before = sb.store.state.outbox.length;
    await create({ to_emails: ['quiet@example.com'], send_email: false });
    expect(sb.store.state.outbox.length).toBe(before);
    await create({ to_emails: ['mailed@example.com'], send_email: true });
    expect(sb.store.state.outbox.slice(before)).toEqual([
      expect.objectContaining({ to: 'mailed@example.com', kind: 'invitation' }),
    ]);
  });

  it('requested_by: a workspace member is named on the link and gets a confirmation', async () => {
    const r = await create({ to_emails: ['c@example.com'], send_email: true, requested_by: 'analyst@sandbox.local' });
    expect(r.status).toBe(201);
    expect(r.body[0]).toMatchObject({ requested_by: 'analyst@sandbox.local', inviter_title: 'Blake Analyst' });
    expect(sb.store.state.outbox.at(-1)).toMatchObject({
      to: 'analyst@sandbox.local',
      kind: 'confirmation',
      link_ids: [r.body[0].id],
    });
    const page = await fetch(r.body[0].url).then((res) => res.text());
    expect(page).toContain('Blake Analyst asks you to connect Google Ads');
  });

  it('requested_by: the agency owner qualifies in any workspace', async () => {
    const r = await create(
      { to_emails: ['d@example.com'], send_email: false, requested_by: 'agency@sandbox.local' },
      102,
    );
    expect(r.status).toBe(201);
  });

  it.each([
    ['a user of another workspace', 'analyst@sandbox.local', 102],
    ['an inactive user', 'former@sandbox.local', 101],
    ['an unknown address', 'nobody@example.com', 101],
  ])('requested_by: %s gives 400 and creates nothing', async (_what, requestedBy, ws) => {
    const before = linkCount();
    const r = await create(
      { to_emails: ['e@example.com', 'f@example.com'], send_email: false, requested_by: requestedBy },
      ws,
    );
    expect(r.status).toBe(400);
    expect(r.body.requested_by).toEqual([expect.stringMatching(/active agency user/)]);
    expect(linkCount()).toBe(before);
  });

  it.each([
    ['no addresses', { to_emails: [], send_email: false }, 'to_emails'],
    ['a bad address', { to_emails: ['ok@example.com', 'not-an-email'], send_email: false }, 'to_emails[1]'],
    ['no send_email', { to_emails: ['ok@example.com'] }, 'send_email'],
  ])('%s gives 400 validation_error naming the field', async (_what, body, field) => {
    const before = linkCount();
    const r = await create(body);
    expect(r.status).toBe(400);
    expect(r.body[field]).toBeDefined();
    expect(linkCount()).toBe(before);
  });

  it('an unknown data source gives 400', async () => {
    const r = await create({ to_emails: ['g@example.com'], send_email: false }, 101, 'nope');
    expect(r.status).toBe(400);
  });

  it('401 without a token', async () => {
    const r = await http(sb, 'POST', '/api/v3/datasources/google_ads/external-auth-links', {
      body: { to_emails: ['g@example.com'], send_email: false },
    });
    expect(r.status).toBe(401);
  });

  it('403 when the agency feature flag is off; list and revoke still answer', async () => {
    const made = await create({ to_emails: ['flag@example.com'], send_email: false });
    await http(sb, 'PATCH', '/_sandbox/agency', { body: { external_auth_links: false } });
    try {
      const before = linkCount();
      const r = await create({ to_emails: ['h@example.com'], send_email: false });
      expect(r.status).toBe(403);
      expect(r.body.detail).toMatch(/not enabled/);
      expect(linkCount()).toBe(before);
      expect((await call('GET', '/api/v3/datasources/google_ads/external-auth-links')).status).toBe(200);
      expect((await revoke(made.body[0].id)).status).toBe(200);
    } finally {
      await http(sb, 'PATCH', '/_sandbox/agency', { body: { external_auth_links: true } });
    }
  });
});

describe('listing links', () => {
  it('lists newest first, within the workspace and data source', async () => {
    const r = await call('GET', '/api/v3/datasources/google_ads/external-auth-links');
    expect(r.status).toBe(200);
    const ids = r.body.results.map((l: any) => l.id);
    expect(ids).toEqual([...ids].sort((a: number, b: number) => b - a));
    expect(r.body.results.every((l: any) => l.datasource_name === 'google_ads')).toBe(true);
    expect(r.body.results.some((l: any) => l.email === 'd@example.com')).toBe(false); // workspace 102
    expect(r.body.results.at(-1)).toMatchObject({ email: 'client@example.com', status: 'not_used' }); // demo link
  });

  it('accepts page_size up to 1000 and caps larger values', async () => {
    const many = Array.from({ length: 1005 }, (_, i) => `bulk${i}@example.com`);
    expect((await create({ to_emails: many, send_email: false }, 103, 'facebook_ads')).status).toBe(201);
    const thousand = await call('GET', '/api/v3/datasources/facebook_ads/external-auth-links?page_size=1000', 103);
    expect(thousand.body.results).toHaveLength(1000);
    const capped = await call('GET', '/api/v3/datasources/facebook_ads/external-auth-links?page_size=5000', 103);
    expect(capped.body.results).toHaveLength(1000);
    expect(capped.body.count).toBe(1005);
    expect(capped.body.next).toMatch(/page=2/);
    const small = await call('GET', '/api/v3/datasources/facebook_ads/external-auth-links?page_size=2', 103);
    expect(small.body.results).toHaveLength(2);
    expect(small.body.results[0].email).toBe('bulk1004@example.com');
  });

  it('an unknown data source gives an empty list', async () => {
    const r = await call('GET', '/api/v3/datasources/nope/external-auth-links');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ count: 0, results: [] });
  });

  it('401 without a token', async () => {
    expect((await http(sb, 'GET', '/api/v3/datasources/google_ads/external-auth-links')).status).toBe(401);
  });
});

describe('link states', () => {
  it('not_used -> revoked_manually; revoking again is 200 with the same revocation data', async () => {
    const [link] = (await create({ to_emails: ['r@example.com'], send_email: false })).body;
    const first = await revoke(link.id);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ id: link.id, status: 'revoked_manually', revoked_at: expect.any(String) });
    await advance(60);
    const again = await revoke(link.id);
    expect(again.status).toBe(200);
    expect(again.body.revoked_at).toBe(first.body.revoked_at);
  });

  it('not_used -> used when the external user connects; revoking a used link is 400', async () => {
    const [link] = (await create({ to_emails: ['u@example.com'], send_email: false })).body;
    const used = await http(sb, 'POST', `/_sandbox/external-auth-links/${link.id}/use`);
    expect(used.status).toBe(200);
    expect(used.body.link.status).toBe('used');
    expect(used.body.connection).toMatchObject({ datasource_name: 'google_ads', accounts_number: 3 });
    const r = await revoke(link.id);
    expect(r.status).toBe(400);
    expect(r.body.detail).toMatch(/already been used/);
    const listed = (await call('GET', '/api/v3/datasources/google_ads/connections')).body.results.map((c: any) => c.id);
    expect(listed).toContain(used.body.connection.id);
    expect((await http(sb, 'POST', `/_sandbox/external-auth-links/${link.id}/use`)).status).toBe(409);
  });

  it('revoke: 404 for an unknown id, another data source or another workspace', async () => {
    const [link] = (await create({ to_emails: ['n@example.com'], send_email: false })).body;
    expect((await revoke(999999)).status).toBe(404);
    expect((await revoke(link.id, 101, 'facebook_ads')).status).toBe(404);
    expect((await revoke(link.id, 101, 'nope')).status).toBe(404);
    expect((await revoke(link.id, 102)).status).toBe(404);
    expect(
      (await http(sb, 'POST', `/api/v3/datasources/google_ads/external-auth-links/${link.id}/revoke`)).status,
    ).toBe(401);
  });

  it('not_used -> expired after 14 days; revoking an expired link is 400', async () => {
    const [link] = (await create({ to_emails: ['x@example.com'], send_email: false })).body;
    await advance(14 * DAY - 10);
    const find = async () =>
      (await call('GET', '/api/v3/datasources/google_ads/external-auth-links')).body.results.find(
        (l: any) => l.id === link.id,
      );
    expect((await find()).status).toBe('not_used');
    await advance(10);
    expect((await find()).status).toBe('expired');
    const r = await revoke(link.id);
    expect(r.status).toBe(400);
    expect(r.body.detail).toMatch(/expired/);
    expect((await fetch(link.url)).status).toBe(410);
  });
});
