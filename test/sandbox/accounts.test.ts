import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { http, sandbox, tokenFor } from '../helpers.js';

let sb: Sandbox;
const tokens = new Map<number, string>();
async function call(method: string, path: string, ws = 101, body?: unknown) {
  if (!tokens.has(ws)) tokens.set(ws, await tokenFor(sb, ws));
  return http(sb, method, path, { token: tokens.get(ws)!, ...(body !== undefined ? { body } : {}) });
}
/** The demo connection of a data source in a workspace. */
async function connectionOf(ws: number, ds: string): Promise<any> {
  const r = await call('GET', `/api/v3/datasources/${ds}/connections`, ws);
  return r.body.results[0];
}

beforeEach(async () => {
  sb = await sandbox();
  tokens.clear();
});
afterEach(() => sb.close());

describe('data sources and connections', () => {
  it('lists data sources with name, title and category', async () => {
    const r = await call('GET', '/api/v3/datasources');
    expect(r.status).toBe(200);
    expect(r.body.results).toContainEqual({
      name: 'google_analytics_4',
      title: 'Google Analytics 4',
      category: 'Web Analytics',
    });
    expect(r.body.results.length).toBeGreaterThanOrEqual(4);
  });

  it('refuses a missing token with 401 {detail}', async () => {
    const r = await http(sb, 'GET', '/api/v3/datasources');
    expect(r.status).toBe(401);
    expect(typeof r.body.detail).toBe('string');
  });

  it('lists connections of a data source with account counts', async () => {
    const r = await call('GET', '/api/v3/datasources/google_ads/connections');
    expect(r.status).toBe(200);
    expect(r.body.count).toBe(1);
    expect(r.body.results[0]).toMatchObject({
      id: 1001,
      datasource_name: 'google_ads',
      accounts_number: 6,
      enabled_for_extraction_accounts_number: 3,
    });
  });

  it('answers 400 for an unknown data source', async () => {
    const r = await call('GET', '/api/v3/datasources/nope/connections');
    expect(r.status).toBe(400);
    expect(r.body.detail).toMatch(/Unknown data source/);
  });

  it('keeps connections per workspace', async () => {
    const a = await connectionOf(101, 'facebook_ads');
    const b = await connectionOf(102, 'facebook_ads');
    expect(a.id).not.toBe(b.id);
  });
});

describe('v3 accounts', () => {
  it('carries the remote account_id, item, and "" for no currency', async () => {
    const ga4 = await connectionOf(101, 'google_analytics_4');
    const r = await call('GET', `/api/v3/connections/${ga4.id}/accounts`);
    expect(r.status).toBe(200);
    const first = r.body.results[0];
    expect(first).toMatchObject({
      account_id: 'properties/310001',
      currency: '',
      connection_id: ga4.id,
      datasource_name: 'google_analytics_4',
      is_active: true,
    });
    expect(first.item).toBeTypeOf('object');
    expect(r.body.results.at(-1).is_active).toBe(false);
  });

  it('shares remote account ids across workspaces under different internal ids', async () => {
    const inA = (await call('GET', `/api/v3/connections/${(await connectionOf(101, 'google_ads')).id}/accounts`, 101))
      .body.results;
    const inB = (await call('GET', `/api/v3/connections/${(await connectionOf(102, 'google_ads')).id}/accounts`, 102))
      .body.results;
    expect(inA.map((a: any) => a.account_id)).toEqual(inB.map((a: any) => a.account_id));
    expect(inA[0].id).not.toBe(inB[0].id);
  });

  it('answers 404 for a connection of another workspace', async () => {
    const other = await connectionOf(102, 'google_ads');
    const r = await call('GET', `/api/v3/connections/${other.id}/accounts`, 101);
    expect(r.status).toBe(404);
    expect(r.body.detail).toBeTypeOf('string');
  });
});

describe('v3.1 accounts list', () => {
  it('has no item, no second id, null currency and additional_params', async () => {
    const ga4 = await connectionOf(101, 'google_analytics_4');
    const r = await call('GET', `/api/v3.1/connections/${ga4.id}/accounts/`);
    expect(r.status).toBe(200);
    const a = r.body.results[0];
    expect(Object.keys(a).sort()).toEqual([
      'additional_params',
      'connection_id',
      'created_at',
      'currency',
      'datasource_name',
      'enabled_for_embedded_extraction',
      'id',
      'is_active',
      'title',
      'updated_at',
    ]);
    expect(a.currency).toBeNull();
    const ids = r.body.results.map((x: any) => x.id);
    expect(ids).toEqual([...ids].sort((x: number, y: number) => x - y));
  });

  it('rule 1: the path without the slash answers 301', async () => {
    const r = await call('GET', '/api/v3.1/connections/1001/accounts?search=brand');
    expect(r.status).toBe(301);
    expect(r.headers.get('location')).toBe('/api/v3.1/connections/1001/accounts/?search=brand');
  });

  it('rule 2: search is a case-insensitive title substring; digits also match the id', async () => {
    const byTitle = await call('GET', '/api/v3.1/connections/1001/accounts/?search=bRaNd');
    expect(byTitle.body.results.map((a: any) => a.title)).toEqual(['Brand 123-456-7801']);
    const byId = await call('GET', '/api/v3.1/connections/1001/accounts/?search=20003');
    expect(byId.body.results.map((a: any) => a.id)).toEqual([20003]);
    // digits that are part of titles match those titles too
    const digits = await call('GET', '/api/v3.1/connections/1001/accounts/?search=7801');
    expect(digits.body.count).toBe(1);
  });

  it('rule 2: a blank search means no filter', async () => {
    const r = await call('GET', '/api/v3.1/connections/1001/accounts/?search=%20%20');
    expect(r.body.count).toBe(6);
  });

  it('rule 3: a page past the end is 400 invalid_query_parameter', async () => {
    const r = await call('GET', '/api/v3.1/connections/1001/accounts/?page=2');
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({
      code: 'invalid_query_parameter',
      details: { parameter: 'page', allowed_values: [] },
    });
  });

  it.each(['0', '101', 'x'])('rule 3: page_size=%s is 400 invalid_query_parameter', async (size) => {
    const r = await call('GET', `/api/v3.1/connections/1001/accounts/?page_size=${size}`);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 'invalid_query_parameter', details: { parameter: 'page_size' } });
  });

  it('pages with full v3.1 next and previous URLs', async () => {
    const first = await call('GET', '/api/v3.1/connections/1001/accounts/?page_size=4');
    expect(first.body.count).toBe(6);
    expect(first.body.next).toBe(`${sb.url}/api/v3.1/connections/1001/accounts/?page_size=4&page=2`);
    expect(first.body.previous).toBeNull();
    const second = await call('GET', '/api/v3.1/connections/1001/accounts/?page_size=4&page=2');
    expect(second.body.results).toHaveLength(2);
    expect(second.body.previous).toBe(`${sb.url}/api/v3.1/connections/1001/accounts/?page_size=4&page=1`);
    expect(second.body.next).toBeNull();
  });

  it('rule 4: a connection of another workspace is 404 not_found in the code envelope', async () => {
    const other = await connectionOf(103, 'google_ads');
    const r = await call('GET', `/api/v3.1/connections/${other.id}/accounts/`, 101);
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ code: 'not_found', message: expect.any(String), details: {} });
  });

  it('answers 401 in the code envelope', async () => {
    const r = await http(sb, 'GET', '/api/v3.1/connections/1001/accounts/');
    expect(r.status).toBe(401);
    expect(r.body).toMatchObject({ code: 'authentication_failed', details: {} });
  });

  it('rule 5: the remote account_id is not searched', async () => {
    // accounts of a connection made through a link: titles do not contain their remote ids
    const created = await call('POST', '/api/v3/datasources/linkedin_ads/external-auth-links', 101, {
      to_emails: ['rule5@example.com'],
      send_email: false,
    });
    const used = await http(sb, 'POST', `/_sandbox/external-auth-links/${created.body[0].id}/use`);
    const connectionId = used.body.connection.id;
    const v3 = await call('GET', `/api/v3/connections/${connectionId}/accounts`);
    const remote = v3.body.results[0].account_id;
    expect(remote).toMatch(/^\d+$/);
    const r = await call('GET', `/api/v3.1/connections/${connectionId}/accounts/?search=${remote}`);
    expect(r.status).toBe(200);
    expect(r.body.count).toBe(0);
  });
});

describe('enable and disable for extraction', () => {
  it('PATCH one account: flag, counts and event follow', async () => {
    const r = await call('PATCH', '/api/v3/connections/1002/accounts/20008', 101, {
      enabled_for_embedded_extraction: true,
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: 20008, enabled_for_embedded_extraction: true, account_id: expect.any(String) });
    expect((await connectionOf(101, 'facebook_ads')).enabled_for_extraction_accounts_number).toBe(4);
    const events = (await http(sb, 'GET', '/_sandbox/events')).body.filter(
      (e: any) => e.type === 'enabled_for_embedded_extraction_changed',
    );
    const last = events.at(-1);
    expect(last.shape).toBe('Account');
    expect(last.data).toMatchObject({
      datasource_account_id: '20008',
      datasource_connection_id: '1002',
      agency_title: 'Sandbox Agency',
      workspace_title: 'Acme Retail',
    });
    expect(Object.values(last.data).every((v) => typeof v === 'string')).toBe(true);
  });

  it('PATCH one account: 404 for an account of another connection', async () => {
    const r = await call('PATCH', '/api/v3/connections/1002/accounts/20001', 101, {
      enabled_for_embedded_extraction: true,
    });
    expect(r.status).toBe(404);
  });

  it('PATCH one account: a bad body is 400 validation_error', async () => {
    const r = await call('PATCH', '/api/v3/connections/1002/accounts/20008', 101, {
      enabled_for_embedded_extraction: 'yes',
    });
    expect(r.status).toBe(400);
    expect(r.body.enabled_for_embedded_extraction).toBeDefined();
  });

  it('PATCH a list: all at once, answered with the accounts', async () => {
    // Both enabled first, whatever the demo data holds, so that the count falls by two.
    const on = await call('PATCH', '/api/v3/connections/1002/accounts', 101, [
      { id: 20007, enabled_for_embedded_extraction: true },
      { id: 20009, enabled_for_embedded_extraction: true },
    ]);
    expect(on.status).toBe(200);
    const enabled = (await connectionOf(101, 'facebook_ads')).enabled_for_extraction_accounts_number;
    const r = await call('PATCH', '/api/v3/connections/1002/accounts', 101, [
      { id: 20007, enabled_for_embedded_extraction: false },
      { id: 20009, enabled_for_embedded_extraction: false },
    ]);
    expect(r.status).toBe(200);
    expect(r.body.map((a: any) => [a.id, a.enabled_for_embedded_extraction])).toEqual([
      [20007, false],
      [20009, false],
    ]);
    expect((await connectionOf(101, 'facebook_ads')).enabled_for_extraction_accounts_number).toBe(enabled - 2);
  });

  it('PATCH a single object on the list path answers one account', async () => {
    const r = await call('PATCH', '/api/v3/connections/1002/accounts', 101, {
      id: 20009,
      enabled_for_embedded_extraction: true,
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: 20009, enabled_for_embedded_extraction: true });
  });

  it('PATCH a list with an unknown id: 400 and nothing changes', async () => {
    const before = await connectionOf(101, 'facebook_ads');
    const r = await call('PATCH', '/api/v3/connections/1002/accounts', 101, [
      { id: 20010, enabled_for_embedded_extraction: false },
      { id: 20001, enabled_for_embedded_extraction: false },
    ]);
    expect(r.status).toBe(400);
    expect(r.body.detail).toMatch(/20001/);
    expect(await connectionOf(101, 'facebook_ads')).toEqual(before);
  });

  it('PATCH answers 401 without a token, on both paths', async () => {
    expect(
      (
        await http(sb, 'PATCH', '/api/v3/connections/1002/accounts', {
          body: [{ id: 20007, enabled_for_embedded_extraction: true }],
        })
      ).status,
    ).toBe(401);
    expect(
      (
        await http(sb, 'PATCH', '/api/v3/connections/1002/accounts/20007', {
          body: { enabled_for_embedded_extraction: true },
        })
      ).status,
    ).toBe(401);
  });

  it('PATCH on a connection of another workspace is 404', async () => {
    const other = await connectionOf(102, 'facebook_ads');
    const r = await call('PATCH', `/api/v3/connections/${other.id}/accounts`, 101, [
      { id: 20007, enabled_for_embedded_extraction: true },
    ]);
    expect(r.status).toBe(404);
  });
});

describe('deleting a connection', () => {
  function addExtract(id: number, connectionId: number, accountId: number) {
    const now = new Date().toISOString();
    sb.store.state.extracts.push({
      id,
      workspace_id: 102,
      connection_id: connectionId,
      datasource_name: 'linkedin_ads',
      account_entity_id: accountId,
      account_embedded_id: null,
      template_id: 301,
      data_table_id: 1,
      title: 'x',
      is_paused: false,
      pause_reason: null,
      status: 'completed',
      delivered: true,
      last_run_at: null,
      sync_historical_data: null,
      created_at: now,
      updated_at: now,
    });
  }

  it('by data source path: 204, accounts inactive, extracts paused, event emitted, then 404', async () => {
    const c = await connectionOf(102, 'linkedin_ads');
    const accountIds = (await call('GET', `/api/v3/connections/${c.id}/accounts`, 102)).body.results.map(
      (a: any) => a.id,
    );
    addExtract(9001, c.id, accountIds[0]);
    const r = await call('DELETE', `/api/v3/datasources/linkedin_ads/connections/${c.id}`, 102);
    expect(r.status).toBe(204);
    const state = sb.store.state;
    expect(state.accounts.filter((a) => a.connection_id === c.id).every((a) => !a.is_active)).toBe(true);
    expect(state.extracts.find((e) => e.id === 9001)).toMatchObject({
      is_paused: true,
      pause_reason: 'connection_deleted',
    });
    const events = state.events.filter((e) => e.workspace_id === 102);
    expect(events.find((e) => e.type === 'connection_deleted')).toMatchObject({
      shape: 'Connection',
      data: {
        datasource_connection_id: String(c.id),
        datasource_name: 'linkedin_ads',
        datasource_connection_title: c.title,
        workspace_title: 'Globex Media',
      },
    });
    expect(events.find((e) => e.type === 'extraction_paused')?.shape).toBe('Extraction');
    expect((await call('GET', '/api/v3/datasources/linkedin_ads/connections', 102)).body.count).toBe(0);
    expect((await call('GET', `/api/v3.1/connections/${c.id}/accounts/`, 102)).status).toBe(404);
    expect((await call('DELETE', `/api/v3/datasources/linkedin_ads/connections/${c.id}`, 102)).status).toBe(404);
  });

  it('by data source path: 400 for an unknown data source, 404 for another data source', async () => {
    const c = await connectionOf(102, 'google_ads');
    expect((await call('DELETE', `/api/v3/datasources/nope/connections/${c.id}`, 102)).status).toBe(400);
    expect((await call('DELETE', `/api/v3/datasources/facebook_ads/connections/${c.id}`, 102)).status).toBe(404);
  });

  it('by connection path: 204, and 404 for another workspace or when repeated', async () => {
    const c = await connectionOf(103, 'linkedin_ads');
    expect((await call('DELETE', `/api/v3/connections/${c.id}`, 101)).status).toBe(404);
    expect((await call('DELETE', `/api/v3/connections/${c.id}`, 103)).status).toBe(204);
    expect(sb.store.state.accounts.filter((a) => a.connection_id === c.id).some((a) => a.is_active)).toBe(false);
    expect((await call('DELETE', `/api/v3/connections/${c.id}`, 103)).status).toBe(404);
  });

  it('answers 401 without a token, on both paths', async () => {
    expect((await http(sb, 'DELETE', '/api/v3/connections/1001')).status).toBe(401);
    expect((await http(sb, 'DELETE', '/api/v3/datasources/google_ads/connections/1001')).status).toBe(401);
    expect((await http(sb, 'GET', '/api/v3/connections/1001/accounts')).status).toBe(401);
    expect((await http(sb, 'GET', '/api/v3/datasources/google_ads/connections')).status).toBe(401);
  });
});
