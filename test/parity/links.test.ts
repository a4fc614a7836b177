import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { unobservable, writeCheck } from './checks.js';
import { allItems, call, canWrite, expectStatus, idText, readWorkspace, tokenFor } from './target.js';
import { DATASOURCE, LINK } from './vendor-names.js';

/** Contract: External authentication link (fields, status table), Data sources table, Limits. */
describe('external auth links', () => {
  let token: string;
  let datasource: string | undefined;
  const created: string[] = [];
  const stamp = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const linksPath = () => `/api/v3/datasources/${encodeURIComponent(datasource!)}/external-auth-links`;

  beforeAll(async () => {
    token = await tokenFor(await readWorkspace());
    datasource = (await allItems('/api/v3/datasources', { bearer: token }))[0]?.[DATASOURCE.name];
  });

  // Links cannot be deleted: revoking is how the checks leave nothing usable behind.
  afterAll(async () => {
    if (!canWrite || !datasource) return;
    for (const id of created) await call('POST', `${linksPath()}/${id}/revoke`, { auth: { bearer: token } });
  });

  test('data sources list items carry category (datasources.list)', async () => {
    const res = await call('GET', '/api/v3/datasources', { auth: { bearer: token } });
    expectStatus(res, 200);
    for (const ds of res.body.results) expect(ds).toHaveProperty('category');
  });

  test('the links list is paginated, newest first, each with a status from the contract (links.list)', async (ctx) => {
    if (!datasource) return ctx.skip('no data source');
    const res = await call('GET', linksPath(), { auth: { bearer: token } });
    expectStatus(res, 200);
    expect(typeof res.body.count).toBe('number');
    for (const link of res.body.results)
      expect(['not_used', 'used', 'expired', 'revoked_manually']).toContain(link.status);
    const times = res.body.results
      .map((l: Record<string, string | undefined>) => l[LINK.createdAt])
      .filter(Boolean)
      .map((t: string) => Date.parse(t));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  test('an unknown data source gives an empty links list (links.list)', async () => {
    const res = await call('GET', '/api/v3/datasources/parity_unknown_source/external-auth-links', {
      auth: { bearer: token },
    });
    expectStatus(res, 200);
    expect(res.body.count).toBe(0);
    expect(res.body.results).toEqual([]);
  });

  test('revoking an unknown link answers 404 (links.revoke; Status meaning)', async (ctx) => {
    if (!datasource) return ctx.skip('no data source');
    expectStatus(await call('POST', `${linksPath()}/2147483646/revoke`, { auth: { bearer: token } }), 404);
  });

  test('the links list without credentials answers 401 (links.list; Authentication)', async (ctx) => {
    if (!datasource) return ctx.skip('no data source');
    expectStatus(await call('GET', linksPath()), 401);
  });

  writeCheck('create answers 201 with one not_used link per address (links.create)', async (ctx) => {
    if (!datasource) return ctx.skip('no data source');
    const emails = [`parity-${stamp}-a@example.com`, `parity-${stamp}-b@example.com`];
    const res = await call('POST', linksPath(), {
      auth: { bearer: token },
      json: { to_emails: emails, send_email: false },
    });
    const links = Array.isArray(res.body) ? res.body : (res.body?.results ?? res.body?.links);
    if (Array.isArray(links)) created.push(...links.map((l: { id: unknown }) => idText(l.id)));
    expectStatus(res, 201);
    expect(links).toHaveLength(2);
    for (const link of links) expect(link.status).toBe('not_used');
    const list = await call('GET', `${linksPath()}?page_size=2`, { auth: { bearer: token } });
    expect(list.body.results.map((l: { id: unknown }) => idText(l.id)).sort()).toEqual(created.slice(-2).sort());
  });

  writeCheck(
    'revoke answers 200 revoked_manually, and again 200 with the same revocation data (External authentication link status)',
    async (ctx) => {
      if (!datasource) return ctx.skip('no data source');
      const res = await call('POST', linksPath(), {
        auth: { bearer: token },
        json: { to_emails: [`parity-${stamp}-c@example.com`], send_email: false },
      });
      const links = Array.isArray(res.body) ? res.body : (res.body?.results ?? res.body?.links);
      expectStatus(res, 201);
      const id = idText(links[0].id);
      created.push(id);
      const first = await call('POST', `${linksPath()}/${id}/revoke`, { auth: { bearer: token } });
      expectStatus(first, 200);
      expect(first.body.status).toBe('revoked_manually');
      const again = await call('POST', `${linksPath()}/${id}/revoke`, { auth: { bearer: token } });
      expectStatus(again, 200);
      expect(again.body).toEqual(first.body);
    },
  );

  writeCheck(
    'requested_by that is not an active agency user answers 400 and creates no link (Versioning 9)',
    async (ctx) => {
      if (!datasource) return ctx.skip('no data source');
      const before = (await call('GET', linksPath(), { auth: { bearer: token } })).body.count;
      const res = await call('POST', linksPath(), {
        auth: { bearer: token },
        json: {
          to_emails: [`parity-${stamp}-d@example.com`],
          send_email: false,
          requested_by: `parity-nobody-${stamp}@example.com`,
        },
      });
      const links = Array.isArray(res.body) ? res.body : [];
      created.push(...links.map((l: { id: unknown }) => idText(l.id)));
      expectStatus(res, 400);
      expect((await call('GET', linksPath(), { auth: { bearer: token } })).body.count).toBe(before);
    },
  );

  unobservable(
    'revoking a used or expired link answers 400 (External authentication link status)',
    'needs an external user to use a link, or 14 days',
  );
  unobservable(
    'create answers 403 when the agency feature flag is off (Authentication rule 5)',
    'needs an agency with the flag off',
  );
});
