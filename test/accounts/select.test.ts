import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { remoteIdLookup, type AccountV3, type AccountV31 } from '../../src/api/accounts.js';
import type { Service } from '../../src/api/service.js';
import { UnresolvedAccountsError, resolveAccounts } from '../../src/accounts/select.js';
import { ApiError } from '../../src/errors.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { chiefService, http, sandbox } from '../helpers.js';

let sb: Sandbox;
let api: Service;
beforeAll(async () => {
  sb = await sandbox();
  api = chiefService(sb);
});
afterAll(async () => {
  await api.close();
  await sb.close();
});

/** The google_ads connection of each workspace and its first account's internal id. */
const GOOGLE_ADS = {
  '101': { connection: '1001', first: 20001 },
  '102': { connection: '1005', first: 20025 },
} as const;

async function problemsOf(promise: Promise<unknown>): Promise<UnresolvedAccountsError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(UnresolvedAccountsError);
  return err as UnresolvedAccountsError;
}

describe('resolveAccounts', () => {
  it('resolves internal ids, titles (exact, then any case) and drops repeats', async () => {
    const r = await resolveAccounts(api, '101', '1001', [
      '20001',
      'Performance 123-456-7802',
      'search us 123-456-7804',
      '20001',
    ]);
    expect(r).toEqual([
      { id: '20001', title: 'Brand 123-456-7801', account_id: undefined },
      { id: '20002', title: 'Performance 123-456-7802', account_id: undefined },
      { id: '20004', title: 'Search US 123-456-7804', account_id: undefined },
    ]);
  });

  it("resolves a remote account_id to each workspace's own internal id", async () => {
    for (const [ws, { connection, first }] of Object.entries(GOOGLE_ADS)) {
      const r = await resolveAccounts(api, ws, connection, ['remote:123-456-7801']);
      expect(r).toEqual([{ id: String(first), title: 'Brand 123-456-7801', account_id: '123-456-7801' }]);
    }
  });

  it('all-active takes every active account and nothing inactive', async () => {
    const r = await resolveAccounts(api, '101', '1001', ['all-active']);
    expect(r.map((a) => a.id)).toEqual(['20001', '20002', '20003', '20004', '20005']);
  });

  it('lists every selector that did not resolve, in order, with the reason (exit 5)', async () => {
    const err = await problemsOf(
      resolveAccounts(api, '101', '1001', ['20006', 'remote:nope', 'Nobody', '20001', 'remote:123-456-7806']),
    );
    expect(err.exitCode).toBe(5);
    expect(err.problems).toEqual([
      { selector: '20006', reason: 'account 20006 "Legacy 123-456-7806" is inactive' },
      { selector: 'remote:nope', reason: 'no account with remote account_id nope' },
      { selector: 'Nobody', reason: 'no account with this id or title' },
      { selector: 'remote:123-456-7806', reason: 'account 20006 "Legacy 123-456-7806" is inactive' },
    ]);
    expect(err.message).toContain('4 account selectors did not resolve in workspace 101, connection 1001:');
    expect(err.message).toContain('  Nobody: no account with this id or title');
  });

  it('an internal id of another workspace does not resolve', async () => {
    const err = await problemsOf(resolveAccounts(api, '102', '1005', ['20001']));
    expect(err.problems[0]!.reason).toBe('no account with this id or title');
  });

  it('a bare remote id gets a hint to write remote:', async () => {
    const err = await problemsOf(resolveAccounts(api, '101', '1003', ['508001']));
    expect(err.problems[0]!.reason).toBe(
      'no account with this id or title; it is a remote account_id: write remote:508001',
    );
  });

  it('among accounts of one title, takes the single active one; several active is ambiguous', async () => {
    const accounts = sb.store.state.accounts.filter((a) => a.connection_id === 1009); // google_ads, workspace 103
    const retitle = (i: number, title: string) =>
      http(sb, 'PATCH', `/_sandbox/accounts/${accounts[i]!.id}`, { body: { title } });
    await retitle(5, accounts[1]!.title); // an inactive namesake
    await retitle(3, accounts[2]!.title); // two active namesakes
    const r = await resolveAccounts(api, '103', '1009', [accounts[1]!.title]);
    expect(r.map((a) => a.id)).toEqual([String(accounts[1]!.id)]);
    const err = await problemsOf(resolveAccounts(api, '103', '1009', [accounts[2]!.title]));
    expect(err.problems[0]!.reason).toBe(
      `several active accounts have this title (${accounts[2]!.id}, ${accounts[3]!.id}); name one by id`,
    );
  });

  it("a connection of another workspace is the service's 404", async () => {
    const err = await resolveAccounts(api, '102', '1001', ['20001']).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(404);
  });
});

describe('remoteIdLookup', () => {
  // Accounts as the contract shows them.
  const v31 = (id: number, title: string): AccountV31 => ({
    id,
    title,
    is_active: true,
    enabled_for_embedded_extraction: false,
  });
  const v3 = (id: number, title: string, account_id: string): AccountV3 => ({
    id,
    title,
    is_active: true,
    enabled_for_embedded_extraction: false,
    account_id,
  });

  it('joins on id', () => {
    const lookup = remoteIdLookup([v3(1, 'A', 'R1'), v3(2, 'B', 'R2')]);
    expect(lookup(v31(2, 'B'))).toBe('R2');
  });

  it('pairs by a unique title when the v3 list carries other keys', () => {
    const lookup = remoteIdLookup([v3(900, 'A', 'R1'), v3(901, 'Twin', 'R2'), v3(902, 'Twin', 'R3')]);
    expect(lookup(v31(5, 'A'))).toBe('R1');
    expect(lookup(v31(6, 'Twin'))).toBeUndefined();
  });
});
