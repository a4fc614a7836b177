import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { writeCheck } from './checks.js';
import {
  allItems,
  call,
  canWrite,
  expectCodeEnvelope,
  expectStatus,
  idText,
  otherWorkspace,
  readWorkspace,
  tokenFor,
} from './target.js';
import { DATASOURCE } from './vendor-names.js';

interface Conn {
  id: string;
  datasource: string;
  accounts_number: number;
  enabled_for_extraction_accounts_number: number;
}

/**
 * Connections of a workspace with their data source, the first `limit` found (a real agency can
 * see hundreds of data sources; the checks need a few connections), optionally only of `only`.
 */
async function connectionsOf(token: string, limit: number, only?: string[]): Promise<Conn[]> {
  const out: Conn[] = [];
  const names =
    only ?? (await allItems('/api/v3/datasources', { bearer: token })).map((ds) => ds[DATASOURCE.name] as string);
  for (const name of names) {
    for (const c of await allItems(`/api/v3/datasources/${encodeURIComponent(name)}/connections`, { bearer: token })) {
      out.push({
        id: idText(c.id),
        datasource: name,
        accounts_number: c.accounts_number,
        enabled_for_extraction_accounts_number: c.enabled_for_extraction_accounts_number,
      });
      if (out.length >= limit) return out;
    }
  }
  return out;
}

/** Contract: Account (v3), Account (v3.1), v3.1 accounts list rules 1-6, Deployment sequence step 4. */
describe('accounts', () => {
  let workspace: number;
  let token: string;
  let connections: Conn[] = [];
  let conn: Conn | undefined;
  let v3Accounts: any[] = [];
  let v31Accounts: any[] = [];
  const restore: Array<{ connection: string; id: string; enabled: boolean }> = [];

  beforeAll(async () => {
    workspace = await readWorkspace();
    token = await tokenFor(workspace);
    connections = await connectionsOf(token, 4);
    conn = connections.find((c) => c.accounts_number >= 2) ?? connections[0];
    if (conn) {
      v3Accounts = await allItems(`/api/v3/connections/${conn.id}/accounts`, { bearer: token });
      v31Accounts = await allItems(`/api/v3.1/connections/${conn.id}/accounts/`, { bearer: token });
    }
  });

  // Put back every account whose extraction flag a check changed, even when the check failed.
  afterAll(async () => {
    if (!canWrite) return;
    for (const r of restore.reverse()) {
      await call('PATCH', `/api/v3/connections/${r.connection}/accounts/${r.id}`, {
        auth: { bearer: token },
        json: { enabled_for_embedded_extraction: r.enabled },
      });
    }
  });

  test('connection list items carry accounts_number and enabled_for_extraction_accounts_number matching the accounts (connections.list)', async (ctx) => {
    if (!conn) return ctx.skip('no connection in the workspace');
    expect(conn.accounts_number).toBe(v3Accounts.length);
    expect(conn.enabled_for_extraction_accounts_number).toBe(
      v3Accounts.filter((a) => a.enabled_for_embedded_extraction === true).length,
    );
  });

  test('v3 accounts carry the remote account_id, item, and currency as a string, empty when none (v3.accounts.list)', async (ctx) => {
    if (v3Accounts.length === 0) return ctx.skip('no account in the workspace');
    for (const a of v3Accounts) {
      expect(a).toHaveProperty('id');
      expect(a).toHaveProperty('account_id');
      expect(a).toHaveProperty('item');
      expect(typeof a.currency).toBe('string');
      expect(typeof a.is_active).toBe('boolean');
      expect(typeof a.enabled_for_embedded_extraction).toBe('boolean');
      expect(idText(a.connection_id)).toBe(conn!.id);
    }
  });

  test('v3.1 accounts carry no item and no second identifier, currency null or a non-empty string (accounts.list; v3.1 accounts)', async (ctx) => {
    if (v31Accounts.length === 0) return ctx.skip('no account in the workspace');
    for (const a of v31Accounts) {
      expect(a).not.toHaveProperty('item');
      expect(a).not.toHaveProperty('account_id');
      for (const key of [
        'id',
        'title',
        'connection_id',
        'datasource_name',
        'is_active',
        'enabled_for_embedded_extraction',
        'currency',
        'additional_params',
      ]) {
        expect(a).toHaveProperty(key);
      }
      expect(a.currency === null || (typeof a.currency === 'string' && a.currency !== '')).toBe(true);
    }
  });

  test('v3 and v3.1 list the same accounts under the same internal ids (Versioning 4)', async (ctx) => {
    if (v31Accounts.length === 0) return ctx.skip('no account in the workspace');
    expect(v31Accounts.map((a) => idText(a.id)).sort()).toEqual(v3Accounts.map((a) => idText(a.id)).sort());
    const currencyV3 = new Map(v3Accounts.map((a) => [idText(a.id), a.currency]));
    for (const a of v31Accounts) expect(a.currency ?? '').toBe(currencyV3.get(idText(a.id)));
  });

  test('v3.1 search is a case-insensitive substring of the title (v3.1 accounts rule 2)', async (ctx) => {
    const sample = v31Accounts.find((a) => /[a-z]{3}/i.test(a.title));
    if (!sample) return ctx.skip('no account with a title to search');
    const word = /[a-z]{3,}/i.exec(sample.title)![0];
    const term =
      word.slice(0, 3).toUpperCase() === word.slice(0, 3)
        ? word.slice(0, 3).toLowerCase()
        : word.slice(0, 3).toUpperCase();
    const res = await call('GET', `/api/v3.1/connections/${conn!.id}/accounts/?search=${encodeURIComponent(term)}`, {
      auth: { bearer: token },
    });
    expectStatus(res, 200);
    const expected = v31Accounts
      .filter((a) => a.title.toLowerCase().includes(term.toLowerCase()) || idText(a.id) === term)
      .map((a) => idText(a.id));
    expect(res.body.results.map((a: { id: unknown }) => idText(a.id))).toEqual(expected.slice(0, 100));
  });

  test('v3.1 search of only digits also matches the account whose id equals it (v3.1 accounts rule 2)', async (ctx) => {
    const sample = v31Accounts.find((a) => !a.title.includes(idText(a.id)));
    if (!sample) return ctx.skip('no account whose title leaves out its id');
    const res = await call('GET', `/api/v3.1/connections/${conn!.id}/accounts/?search=${idText(sample.id)}`, {
      auth: { bearer: token },
    });
    expectStatus(res, 200);
    expect(res.body.results.map((a: { id: unknown }) => idText(a.id))).toContain(idText(sample.id));
  });

  test('v3.1 blank search means no filter (v3.1 accounts rule 2)', async (ctx) => {
    if (!conn) return ctx.skip('no connection in the workspace');
    const res = await call('GET', `/api/v3.1/connections/${conn.id}/accounts/?search=%20%20`, {
      auth: { bearer: token },
    });
    expectStatus(res, 200);
    expect(res.body.count).toBe(v31Accounts.length);
  });

  test('the same remote account_id has different internal ids in different workspaces (Deployment sequence step 4)', async (ctx) => {
    const other = await otherWorkspace(workspace);
    if (other === undefined) return ctx.skip('the agency has one workspace only');
    const otherToken = await tokenFor(other);
    const mine = new Map<string, string>();
    for (const c of connections)
      for (const a of await allItems(`/api/v3/connections/${c.id}/accounts`, { bearer: token }))
        mine.set(String(a.account_id), idText(a.id));
    const shared: Array<[string, string, string]> = [];
    for (const c of await connectionsOf(otherToken, 8, [...new Set(connections.map((x) => x.datasource))])) {
      for (const a of await allItems(`/api/v3/connections/${c.id}/accounts`, { bearer: otherToken })) {
        const here = mine.get(String(a.account_id));
        if (here !== undefined) shared.push([String(a.account_id), here, idText(a.id)]);
      }
    }
    if (shared.length === 0) return ctx.skip('no remote account shared by two workspaces');
    for (const [, here, there] of shared) expect(here).not.toBe(there);
  });

  writeCheck(
    'PATCH one account toggles enabled_for_embedded_extraction and the lists show it (accounts.setOneActive)',
    async (ctx) => {
      const account = v3Accounts.find((a) => a.is_active);
      if (!account) return ctx.skip('no active account in the scratch workspace');
      const id = idText(account.id);
      const was = account.enabled_for_embedded_extraction as boolean;
      restore.push({ connection: conn!.id, id, enabled: was });
      const res = await call('PATCH', `/api/v3/connections/${conn!.id}/accounts/${id}`, {
        auth: { bearer: token },
        json: { enabled_for_embedded_extraction: !was },
      });
      expectStatus(res, 200);
      expect(idText(res.body.id)).toBe(id);
      expect(res.body.enabled_for_embedded_extraction).toBe(!was);
      const list = await allItems(`/api/v3.1/connections/${conn!.id}/accounts/`, { bearer: token });
      expect(list.find((a) => idText(a.id) === id).enabled_for_embedded_extraction).toBe(!was);
      const back = await call('PATCH', `/api/v3/connections/${conn!.id}/accounts/${id}`, {
        auth: { bearer: token },
        json: { enabled_for_embedded_extraction: was },
      });
      expect(back.body.enabled_for_embedded_extraction).toBe(was);
    },
  );

  writeCheck(
    'PATCH the accounts of a connection with a list of {id, enabled_for_embedded_extraction} (accounts.setActive)',
    async (ctx) => {
      const account = v3Accounts.filter((a) => a.is_active)[1] ?? v3Accounts.find((a) => a.is_active);
      if (!account) return ctx.skip('no active account in the scratch workspace');
      const id = idText(account.id);
      const was = account.enabled_for_embedded_extraction as boolean;
      restore.push({ connection: conn!.id, id, enabled: was });
      const res = await call('PATCH', `/api/v3/connections/${conn!.id}/accounts`, {
        auth: { bearer: token },
        json: [{ id: Number(id), enabled_for_embedded_extraction: !was }],
      });
      expectStatus(res, 200);
      const changed = Array.isArray(res.body) ? res.body[0] : res.body;
      expect(changed.enabled_for_embedded_extraction).toBe(!was);
      await call('PATCH', `/api/v3/connections/${conn!.id}/accounts/${id}`, {
        auth: { bearer: token },
        json: { enabled_for_embedded_extraction: was },
      });
    },
  );

  writeCheck(
    'PATCH an account that is not in the connection answers 404 (accounts.setOneActive; Status meaning)',
    async (ctx) => {
      if (!conn) return ctx.skip('no connection in the scratch workspace');
      expectStatus(
        await call('PATCH', `/api/v3/connections/${conn.id}/accounts/2147483646`, {
          auth: { bearer: token },
          json: { enabled_for_embedded_extraction: true },
        }),
        404,
      );
    },
  );

  test('the v3.1 accounts list of a connection of another workspace answers 404 not_found (v3.1 accounts rule 4)', async (ctx) => {
    if (!conn) return ctx.skip('no connection in the workspace');
    const other = await otherWorkspace(workspace);
    if (other === undefined) return ctx.skip('the agency has one workspace only');
    expectCodeEnvelope(
      await call('GET', `/api/v3.1/connections/${conn.id}/accounts/`, { auth: { bearer: await tokenFor(other) } }),
      404,
      'not_found',
    );
  });
});
