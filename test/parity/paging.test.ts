import { beforeAll, describe, expect, test } from 'vitest';
import {
  baseUrl,
  call,
  expectCodeEnvelope,
  expectStatus,
  idText,
  readWorkspace,
  relative,
  tokenFor,
} from './target.js';
import { DATASOURCE } from './vendor-names.js';

/** Contract: Paginated list envelope, Limits, v3.1 accounts rule 3, v3-vs-v3.1 table. */
describe('paging', () => {
  let token: string;
  let connectionId: string | undefined;
  let accountCount = 0;

  beforeAll(async () => {
    token = await tokenFor(await readWorkspace());
    // A connection with at least three accounts, to page through with page_size 2.
    const sources = await call('GET', '/api/v3/datasources', { auth: { bearer: token } });
    // The first page of data sources is enough to find one; a real agency can see hundreds.
    for (const ds of sources.body?.results ?? []) {
      const name = ds[DATASOURCE.name];
      const conns = await call('GET', `/api/v3/datasources/${encodeURIComponent(name)}/connections`, {
        auth: { bearer: token },
      });
      const found = (conns.body?.results ?? []).find(
        (c: { accounts_number?: number }) => Number(c.accounts_number) >= 3,
      );
      if (found) {
        connectionId = idText(found.id);
        accountCount = Number(found.accounts_number);
        break;
      }
    }
  });

  test('a list answers the envelope {count, next, previous, results} with page 1 and page_size 100 by default (Limits; Endpoints)', async () => {
    const res = await call('GET', '/api/v3/webhook_event_types/', { auth: { bearer: token } });
    expectStatus(res, 200);
    expect(Object.keys(res.body).sort()).toEqual(expect.arrayContaining(['count', 'next', 'previous', 'results']));
    expect(typeof res.body.count).toBe('number');
    expect(res.body.previous).toBeNull();
    expect(res.body.results.length).toBe(Math.min(res.body.count, 100));
  });

  test('next and previous are full URLs on the base address that walk the pages (Endpoints)', async () => {
    const first = await call('GET', '/api/v3/webhook_event_types/?page_size=40', { auth: { bearer: token } });
    expectStatus(first, 200);
    expect(first.body.results).toHaveLength(40);
    expect(typeof first.body.next).toBe('string');
    expect(first.body.next.startsWith(`${baseUrl}/api/v3/webhook_event_types/`)).toBe(true);
    expect(new URL(first.body.next).searchParams.get('page')).toBe('2');
    const second = await call('GET', relative(first.body.next), { auth: { bearer: token } });
    expectStatus(second, 200);
    expect(second.body.results).toHaveLength(40);
    expect(second.body.previous.startsWith(baseUrl)).toBe(true);
    const back = await call('GET', relative(second.body.previous), { auth: { bearer: token } });
    expect(back.body.results).toEqual(first.body.results);
    const names = new Set(
      [...first.body.results, ...second.body.results].map((r: { event_name: string }) => r.event_name),
    );
    expect(names.size).toBe(80);
    const last = await call('GET', relative(second.body.next), { auth: { bearer: token } });
    expect(last.body.next).toBeNull();
    expect(last.body.results).toHaveLength(first.body.count - 80);
  });

  test('v3.1 accounts: items sorted by id, next and previous are full v3.1 URLs or null (v3.1 accounts list)', async (ctx) => {
    if (!connectionId) return ctx.skip('no connection with three accounts in the workspace');
    const first = await call('GET', `/api/v3.1/connections/${connectionId}/accounts/?page_size=2`, {
      auth: { bearer: token },
    });
    expectStatus(first, 200);
    expect(first.body.count).toBe(accountCount);
    expect(first.body.previous).toBeNull();
    expect(first.body.next.startsWith(`${baseUrl}/api/v3.1/connections/${connectionId}/accounts/`)).toBe(true);
    const second = await call('GET', relative(first.body.next), { auth: { bearer: token } });
    expectStatus(second, 200);
    expect(second.body.previous.startsWith(`${baseUrl}/api/v3.1/`)).toBe(true);
    const ids = [...first.body.results, ...second.body.results].map((a: { id: unknown }) => BigInt(idText(a.id)));
    expect([...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))).toEqual(ids);
  });

  test('v3.1 accounts: page_size defaults to 100 (Versioning 3, Limits)', async (ctx) => {
    if (!connectionId) return ctx.skip('no connection with three accounts in the workspace');
    const res = await call('GET', `/api/v3.1/connections/${connectionId}/accounts/`, { auth: { bearer: token } });
    expectStatus(res, 200);
    expect(res.body.results.length).toBe(Math.min(accountCount, 100));
  });

  test('v3.1 accounts: page_size above 100 answers 400 invalid_query_parameter (v3.1 accounts rule 3)', async (ctx) => {
    if (!connectionId) return ctx.skip('no connection in the workspace');
    const res = await call('GET', `/api/v3.1/connections/${connectionId}/accounts/?page_size=101`, {
      auth: { bearer: token },
    });
    expectCodeEnvelope(res, 400, 'invalid_query_parameter');
    expect(res.body.details.parameter).toBe('page_size');
    expect(res.body.details.allowed_values).toEqual([]);
  });

  test('v3.1 accounts: page_size below 1 answers 400 invalid_query_parameter (v3.1 accounts rule 3)', async (ctx) => {
    if (!connectionId) return ctx.skip('no connection in the workspace');
    const res = await call('GET', `/api/v3.1/connections/${connectionId}/accounts/?page_size=0`, {
      auth: { bearer: token },
    });
    expectCodeEnvelope(res, 400, 'invalid_query_parameter');
  });

  test('v3.1 accounts: a page past the end answers 400 invalid_query_parameter (v3.1 accounts rule 3)', async (ctx) => {
    if (!connectionId) return ctx.skip('no connection in the workspace');
    const res = await call(
      'GET',
      `/api/v3.1/connections/${connectionId}/accounts/?page=${accountCount + 1}&page_size=1`,
      { auth: { bearer: token } },
    );
    expectCodeEnvelope(res, 400, 'invalid_query_parameter');
    expect(res.body.details.parameter).toBe('page');
  });

  test('v3.1 recipes: page_size above 100 answers 400 invalid_query_parameter (Limits)', async () => {
    const res = await call('GET', '/api/v3.1/automated-recipes/?page_size=101', { auth: { bearer: token } });
    expectCodeEnvelope(res, 400, 'invalid_query_parameter');
  });

  test('v3.1 recipes: a page past the end answers 400 invalid_query_parameter (Limits, Versioning 3)', async () => {
    const count = (await call('GET', '/api/v3.1/automated-recipes/?page_size=100', { auth: { bearer: token } })).body
      .count;
    const res = await call('GET', `/api/v3.1/automated-recipes/?page=${Math.floor(count / 100) + 2}&page_size=100`, {
      auth: { bearer: token },
    });
    expectCodeEnvelope(res, 400, 'invalid_query_parameter');
  });

  test('v3 recipes: page_size above 100 is silently capped at 100 (v3.recipes.list; v3-vs-v3.1 table)', async () => {
    const res = await call('GET', '/api/v3/automated-recipes/?page_size=101', { auth: { bearer: token } });
    expectStatus(res, 200);
    expect(res.body.results.length).toBeLessThanOrEqual(100);
  });

  test('v3 recipes: a page past the end answers 404 (v3.recipes.list; v3-vs-v3.1 table)', async () => {
    const count = (await call('GET', '/api/v3/automated-recipes/?page_size=100', { auth: { bearer: token } })).body
      .count;
    const res = await call('GET', `/api/v3/automated-recipes/?page=${Math.floor(count / 100) + 2}&page_size=100`, {
      auth: { bearer: token },
    });
    expectStatus(res, 404);
  });

  test('external authentication links: page_size up to 1000 is accepted (Limits)', async () => {
    const sources = await call('GET', '/api/v3/datasources', { auth: { bearer: token } });
    const name = sources.body.results[0]?.[DATASOURCE.name] ?? 'google_ads';
    const res = await call(
      'GET',
      `/api/v3/datasources/${encodeURIComponent(name)}/external-auth-links?page_size=1000`,
      { auth: { bearer: token } },
    );
    expectStatus(res, 200);
    expect(Array.isArray(res.body.results)).toBe(true);
  });

  test('a forged Host header is not reflected into next links (Endpoints)', async (ctx) => {
    const res = await call('GET', '/api/v3/webhook_event_types/?page_size=10', {
      auth: { bearer: token },
      headers: { host: 'parity-forged.invalid' },
    });
    if (res.status !== 200) return ctx.skip(`the target refuses a foreign Host header (${res.status})`);
    expect(res.body.next).not.toContain('parity-forged.invalid');
    expect(res.body.next.startsWith(baseUrl)).toBe(true);
  });
});
