import { idText, jsonInteger } from '../util/json.js';
import type { Received } from '../contract/answers.js';
import type { accountBulkList, accountToggle, Sent } from '../contract/requests.js';
import type { ListOptions, Service } from './service.js';

/** Accounts of a connection, v3.1 and v3: workspace operations (Bearer). */

/** v3.1 account: `id` is the only id accepted in recipe configuration. */
export type AccountV31 = Received<'AccountV31'>;

/** v3 account: also carries the remote `account_id`, stable across workspaces. */
export type AccountV3 = Received<'AccountV3'>;

/** v3.1 accounts list: trailing slash mandatory, page_size 1..100. */
export function listAccounts(
  api: Service,
  ws: string,
  connectionId: string,
  query: { search?: string | undefined } = {},
  opts?: ListOptions,
): AsyncGenerator<AccountV31> {
  return api.list(
    'accounts.list',
    { params: { connection_id: connectionId }, workspaceId: ws, query: { search: query.search }, pageSize: 100 },
    opts,
  );
}

/** v3 accounts list (no trailing slash): the only place the remote `account_id` appears. */
export function listAccountsV3(
  api: Service,
  ws: string,
  connectionId: string,
  opts?: ListOptions,
): AsyncGenerator<AccountV3> {
  return api.list(
    'v3.accounts.list',
    { params: { connection_id: connectionId }, workspaceId: ws, pageSize: 100 },
    opts,
  );
}

/**
 * Turns extraction on or off for accounts of a connection: one account by its own path, several
 * by one PATCH of the list (all or nothing). Setting a flag twice leaves the same state, so a
 * lost answer may be repeated.
 */
export async function setAccountsExtraction(
  api: Service,
  ws: string,
  connectionId: string,
  accountIds: string[],
  enabled: boolean,
): Promise<AccountV3[]> {
  if (accountIds.length === 1) {
    const one: AccountV3 = await api.read('accounts.setOneActive', {
      params: { connection_id: connectionId, account_id: accountIds[0]! },
      workspaceId: ws,
      body: { enabled_for_embedded_extraction: enabled } satisfies Sent<typeof accountToggle>,
    });
    return [one];
  }
  const data: AccountV3 | AccountV3[] = await api.read('accounts.setActive', {
    params: { connection_id: connectionId },
    workspaceId: ws,
    body: accountIds.map((id) => ({
      id: jsonInteger(id),
      enabled_for_embedded_extraction: enabled,
    })) satisfies Sent<typeof accountBulkList>,
  });
  return Array.isArray(data) ? data : [data];
}

/**
 * The remote `account_id` of a v3.1 account, from the v3 list. The two lists are joined on
 * `id`; for agencies whose v3 list carries other keys (docs/contract-rules.md, Versioning 4) an account is
 * paired with the v3 account of the same title when exactly one has it.
 */
export function remoteIdLookup(v3: AccountV3[]): (account: Pick<AccountV31, 'id' | 'title'>) => string | undefined {
  const byId = new Map(v3.map((a) => [idText(a.id), idText(a.account_id)]));
  const byTitle = new Map<string, string | null>();
  for (const a of v3) byTitle.set(a.title, byTitle.has(a.title) ? null : idText(a.account_id));
  return (account) => byId.get(idText(account.id)) ?? byTitle.get(account.title) ?? undefined;
}
