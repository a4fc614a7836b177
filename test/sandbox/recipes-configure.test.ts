import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { control, http, sandbox, tokenFor } from '../helpers.js';
import { V3, V31, configuration, configure, createRecipe, demo, resetRecipes } from '../fixtures/recipes.js';

let sb: Sandbox;
let token: string;
let id: string;
beforeAll(async () => {
  sb = await sandbox({ buildSeconds: 0 });
  token = await tokenFor(sb, 101);
});
afterAll(() => sb.close());
beforeEach(async () => {
  resetRecipes(sb);
  id = await createRecipe(sb, token, 4001);
});

const g = () => demo(sb, 101, 'google_ads');
const f = () => demo(sb, 101, 'facebook_ads');

async function put(body: unknown) {
  return configure(sb, token, id, body);
}

describe('sandbox: configure (v3.1 PUT)', () => {
  it('saves the complete configuration and answers 200 with the recipe as stored', async () => {
    const body = configuration(sb, 101, { google_ads: g().accounts.slice(0, 2) }, { sync_from_date: '2024-01-01' });
    const r = await put(body);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      data_sources: ['google_ads'],
      connections: body.connections,
      sync_from_date: '2024-01-01',
      state: null,
    });
  });

  it('validation_error with field paths: empty accounts, a bare account, a bad date', async () => {
    const r = await put({
      data_sources: ['google_ads'],
      connections: [
        { connection_id: g().connection, connection_data_source: 'google_ads', accounts: [] },
        { connection_id: g().connection, connection_data_source: 'google_ads', accounts: [{ id: 'x' }] },
      ],
      sync_from_date: '2024-02-30',
    });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('validation_error');
    const fields = r.body.details.fields.map((x: any) => [x.field, x.code]);
    expect(fields).toEqual(
      expect.arrayContaining([
        ['connections[0].accounts', 'empty'],
        ['connections[1].accounts[0].id', 'invalid'],
        ['sync_from_date', 'invalid'],
      ]),
    );
    const missing = await put({});
    expect(missing.body.details.fields).toEqual(
      expect.arrayContaining([{ field: 'data_sources', code: 'required', message: expect.any(String) }]),
    );
    const twice = await put(configuration(sb, 101, { google_ads: [g().accounts[0]!, g().accounts[0]!] }));
    expect(twice.body.details.fields).toEqual([
      expect.objectContaining({ field: 'connections[0].accounts[1].id', code: 'duplicate' }),
    ]);
  });

  it('400 data_source_not_allowed', async () => {
    const r = await put(configuration(sb, 101, { google_analytics_4: 'all' }));
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({
      code: 'data_source_not_allowed',
      details: { data_sources: ['google_analytics_4'] },
    });
  });

  it('400 connection_data_source_not_selected with index and ids', async () => {
    const body = configuration(sb, 101, { google_ads: 'all', facebook_ads: 'all' });
    body.data_sources = ['google_ads'];
    const r = await put(body);
    expect(r.body).toEqual({
      code: 'connection_data_source_not_selected',
      message: expect.any(String),
      details: { connections: [{ index: 1, connection_id: f().connection, connection_data_source: 'facebook_ads' }] },
    });
  });

  it('400 duplicate_connection', async () => {
    const body = configuration(sb, 101, { google_ads: 'all' });
    body.connections.push({ ...body.connections[0]! });
    const r = await put(body);
    expect(r.body).toMatchObject({
      code: 'duplicate_connection',
      details: { connections: [{ index: 1, connection_id: g().connection, connection_data_source: 'google_ads' }] },
    });
  });

  it('400 data_source_without_connection', async () => {
    const body = configuration(sb, 101, { google_ads: 'all' });
    body.data_sources.push('facebook_ads');
    const r = await put(body);
    expect(r.body).toMatchObject({
      code: 'data_source_without_connection',
      details: { data_sources: ['facebook_ads'] },
    });
  });

  it('404 not_found for a connection of another workspace', async () => {
    const other = demo(sb, 102, 'google_ads');
    const r = await put({
      data_sources: ['google_ads'],
      connections: [
        {
          connection_id: other.connection,
          connection_data_source: 'google_ads',
          accounts: [{ id: other.accounts[0] }],
        },
      ],
    });
    expect(r.status).toBe(404);
    expect(r.body.code).toBe('not_found');
  });

  it("400 account_unavailable for an inactive account, another connection's account, an unknown id", async () => {
    const r = await put({
      data_sources: ['google_ads'],
      connections: [
        {
          connection_id: g().connection,
          connection_data_source: 'google_ads',
          accounts: [{ id: g().accounts[0] }, { id: g().inactive }, { id: f().accounts[0] }, { id: 1 }],
        },
      ],
    });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({
      code: 'account_unavailable',
      details: {
        connections: [
          {
            connection_id: g().connection,
            connection_data_source: 'google_ads',
            accounts: [{ id: g().inactive }, { id: f().accounts[0] }, { id: 1 }],
          },
        ],
      },
    });
  });

  it('503 account_check_unavailable saves nothing', async () => {
    await http(sb, 'POST', '/_sandbox/recipes/faults', { body: { account_check_unavailable: 1 } });
    const r = await put(configuration(sb, 101, { google_ads: 'all' }));
    expect(r.status).toBe(503);
    expect(r.headers.get('retry-after')).toBe('0');
    expect(r.body.code).toBe('account_check_unavailable');
    expect(sb.store.state.recipes[0]!.connections).toEqual([]);
  });

  describe('append-only', () => {
    beforeEach(async () => {
      const r = await put(
        configuration(sb, 101, { google_ads: g().accounts.slice(0, 2), facebook_ads: f().accounts.slice(0, 1) }),
      );
      expect(r.status).toBe(200);
    });

    it('appends accounts, connections and repeats harmlessly', async () => {
      const more = configuration(sb, 101, {
        google_ads: g().accounts.slice(0, 3),
        facebook_ads: f().accounts.slice(0, 1),
      });
      expect((await put(more)).status).toBe(200);
      const again = await put(more);
      expect(again.status).toBe(200);
      expect(again.body.connections[0].accounts).toHaveLength(3);
    });

    it('409 data_source_removal_not_allowed and nothing saved', async () => {
      const r = await put(configuration(sb, 101, { google_ads: g().accounts.slice(0, 3) }));
      expect(r.status).toBe(409);
      expect(r.body).toMatchObject({
        code: 'data_source_removal_not_allowed',
        details: { data_sources: ['facebook_ads'] },
      });
      expect(sb.store.state.recipes[0]!.connections[0]!.account_ids).toHaveLength(2);
    });

    it('409 connection_removal_not_allowed', async () => {
      const body = configuration(sb, 101, {
        google_ads: g().accounts.slice(0, 2),
        facebook_ads: f().accounts.slice(0, 1),
      });
      body.connections.pop();
      const r = await put(body);
      expect(r.status).toBe(409);
      expect(r.body).toMatchObject({
        code: 'connection_removal_not_allowed',
        details: { connections: [{ connection_id: f().connection, connection_data_source: 'facebook_ads' }] },
      });
    });

    it('409 account_removal_not_allowed; v3 names them in a connections list of strings', async () => {
      const body = configuration(sb, 101, {
        google_ads: g().accounts.slice(1, 2),
        facebook_ads: f().accounts.slice(0, 1),
      });
      const r = await put(body);
      expect(r.status).toBe(409);
      expect(r.body.details).toEqual({
        connections: [
          { connection_id: g().connection, connection_data_source: 'google_ads', accounts: [{ id: g().accounts[0] }] },
        ],
      });
      const v3 = await http(sb, 'PUT', `${V3}${id}/`, { token, body });
      expect(v3.status).toBe(400);
      expect(v3.body.connections).toEqual([expect.stringContaining(String(g().accounts[0]))]);
      expect(v3.body.connections[0]).toMatch(/only new accounts may be added/);
    });

    it('reports only the first failing rule: a 400 rule before a removal', async () => {
      const body = configuration(sb, 101, { google_ads: g().accounts.slice(0, 1) });
      body.data_sources.push('linkedin_ads');
      const r = await put(body);
      expect(r.body.code).toBe('data_source_without_connection');
    });

    it('keeps accounts configured earlier that went inactive since', async () => {
      const account = sb.store.state.accounts.find((a) => a.id === g().accounts[0])!;
      await control(sb, 'PATCH', `/accounts/${account.id}`, { is_active: false });
      try {
        const r = await put(
          configuration(sb, 101, {
            google_ads: [account.id, ...g().accounts.slice(0, 2)],
            facebook_ads: f().accounts.slice(0, 1),
          }),
        );
        expect(r.status).toBe(200);
      } finally {
        await control(sb, 'PATCH', `/accounts/${account.id}`, { is_active: true });
      }
    });
  });
});

describe('sandbox: configure (v3 PUT)', () => {
  it('answers 200 with an empty body; accounts are {id, account_id} objects; a bare value is 400', async () => {
    const account = sb.store.state.accounts.find((a) => a.id === g().accounts[0])!;
    const r = await http(sb, 'PUT', `${V3}${id}/`, {
      token,
      body: {
        data_sources: ['google_ads'],
        connections: [
          {
            connection_id: g().connection,
            connection_data_source: 'google_ads',
            accounts: [{ id: account.id, account_id: account.account_id }],
          },
        ],
      },
    });
    expect(r.status).toBe(200);
    expect(r.text).toBe('');
    const read = await http(sb, 'GET', `${V3}${id}/`, { token });
    expect(read.body.connections[0].accounts).toEqual([{ id: account.id, account_id: account.account_id }]);
    expect(read.body.last_build_at).toEqual(expect.any(String));
    const bare = await http(sb, 'PUT', `${V3}${id}/`, {
      token,
      body: {
        data_sources: ['google_ads'],
        connections: [
          { connection_id: g().connection, connection_data_source: 'google_ads', accounts: [String(account.id)] },
        ],
      },
    });
    expect(bare.status).toBe(400);
    expect(bare.body['connections[0].accounts[0]']).toEqual([expect.stringMatching(/dictionary/)]);
  });

  it('refuses another key for the account with account_unavailable', async () => {
    const r = await http(sb, 'PUT', `${V3}${id}/`, {
      token,
      body: {
        data_sources: ['google_ads'],
        connections: [
          {
            connection_id: g().connection,
            connection_data_source: 'google_ads',
            accounts: [{ id: g().accounts[0], account_id: 'old-key-1' }],
          },
        ],
      },
    });
    expect(r.status).toBe(400);
    expect(r.body.detail).toMatch(/unknown, inactive/);
  });
});

describe('sandbox: v3.1 and v3 read the same recipe', () => {
  it('a v3 configuration is read back by v3.1 with {id} accounts', async () => {
    const account = sb.store.state.accounts.find((a) => a.id === g().accounts[1])!;
    await http(sb, 'PUT', `${V3}${id}/`, {
      token,
      body: {
        data_sources: ['google_ads'],
        connections: [
          {
            connection_id: g().connection,
            connection_data_source: 'google_ads',
            accounts: [{ id: account.id, account_id: account.account_id }],
          },
        ],
      },
    });
    const r = await http(sb, 'GET', `${V31}${id}/`, { token });
    expect(r.body.connections[0].accounts).toEqual([{ id: account.id }]);
    expect(r.body.last_build_at).toBeNull();
  });
});
