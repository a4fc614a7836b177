import { ExitCode, ExitError } from '../errors.js';
import { idText } from '../util/json.js';
import { path } from './path.js';
import type { ListOptions, Service } from './service.js';

/** Data sources, connections and accounts: workspace operations (Bearer). */

export interface DataSource {
  name: string;
  title?: string;
  category?: string;
  [key: string]: unknown;
}

export interface Connection {
  id: number | string;
  accounts_number?: number;
  enabled_for_extraction_accounts_number?: number;
  [key: string]: unknown;
}

/** v3.1 account: `id` is the only id accepted in recipe configuration. */
export interface AccountV31 {
  id: number | string;
  title: string;
  connection_id?: number | string;
  datasource_name?: string;
  is_active: boolean;
  enabled_for_embedded_extraction?: boolean;
  currency?: string | null;
  [key: string]: unknown;
}

/** v3 account: also carries the remote `account_id`, stable across workspaces. */
export interface AccountV3 extends AccountV31 {
  account_id: string | number;
}

export function listDataSources(api: Service, ws: string, opts?: ListOptions): AsyncGenerator<DataSource> {
  return api.list<DataSource>({ path: '/api/v3/datasources', auth: 'bearer', workspaceId: ws }, opts);
}

export function listConnections(api: Service, ws: string, datasource: string, opts?: ListOptions): AsyncGenerator<Connection> {
  return api.list<Connection>({ path: path`/api/v3/datasources/${datasource}/connections`, auth: 'bearer', workspaceId: ws }, opts);
}

/** v3.1 accounts list: trailing slash mandatory, page_size 1..100. */
export function listAccounts(
  api: Service,
  ws: string,
  connectionId: string,
  query: { search?: string | undefined } = {},
  opts?: ListOptions,
): AsyncGenerator<AccountV31> {
  return api.list<AccountV31>(
    { path: path`/api/v3.1/connections/${connectionId}/accounts/`, auth: 'bearer', workspaceId: ws, query: { search: query.search }, pageSize: 100 },
    opts,
  );
}

/** v3 accounts list (no trailing slash): the only place the remote `account_id` appears. */
export function listAccountsV3(api: Service, ws: string, connectionId: string, opts?: ListOptions): AsyncGenerator<AccountV3> {
  return api.list<AccountV3>({ path: path`/api/v3/connections/${connectionId}/accounts`, auth: 'bearer', workspaceId: ws, pageSize: 100 }, opts);
}

export interface ResolvedAccount {
  id: string;
  title: string;
  /** remote account id, when it was looked up */
  account_id?: string | undefined;
}

/** Account selectors an operator types: internal id, exact title, `remote:ID`, or `all-active`. */
export function isRemoteSelector(s: string): boolean {
  return s.startsWith('remote:');
}

/**
 * Resolves account selectors for one connection in one workspace to internal (v3.1) ids.
 * Only active accounts qualify (contract, v3.1 accounts rule 6). Remote ids are joined through
 * the v3 list, since internal ids differ between workspaces for the same remote account
 * (Deployment sequence, step 4). Anything that does not resolve is listed in one error.
 */
export async function resolveAccounts(api: Service, ws: string, connectionId: string, selectors: string[]): Promise<ResolvedAccount[]> {
  const accounts: AccountV31[] = [];
  for await (const a of listAccounts(api, ws, connectionId)) accounts.push(a);
  const needRemote = selectors.some(isRemoteSelector);
  const remoteOf = new Map<string, string>();
  if (needRemote) {
    for await (const a of listAccountsV3(api, ws, connectionId)) remoteOf.set(idText(a.id), idText(a.account_id));
  }
  const byId = new Map(accounts.map((a) => [idText(a.id), a]));
  const out = new Map<string, ResolvedAccount>();
  const problems: string[] = [];
  const take = (a: AccountV31, selector: string) => {
    if (!a.is_active) {
      problems.push(`${selector}: account ${idText(a.id)} "${a.title}" is inactive`);
      return;
    }
    const id = idText(a.id);
    out.set(id, { id, title: a.title, account_id: remoteOf.get(id) });
  };
  for (const selector of selectors) {
    if (selector === 'all-active') {
      for (const a of accounts) if (a.is_active) take(a, selector);
      continue;
    }
    if (isRemoteSelector(selector)) {
      const remote = selector.slice('remote:'.length);
      const matches = accounts.filter((a) => remoteOf.get(idText(a.id)) === remote);
      if (matches.length === 0) problems.push(`${selector}: no account with remote id ${remote} in connection ${connectionId}`);
      else if (matches.length > 1) problems.push(`${selector}: several accounts have remote id ${remote} (${matches.map((a) => idText(a.id)).join(', ')}); name one by id`);
      else take(matches[0]!, selector);
      continue;
    }
    const exact = byId.get(selector);
    if (/^\d+$/.test(selector) && exact) {
      take(exact, selector);
      continue;
    }
    const titled = accounts.filter((a) => a.title === selector);
    if (titled.length === 1) take(titled[0]!, selector);
    else if (titled.length > 1) problems.push(`"${selector}": several accounts have this title (${titled.map((a) => idText(a.id)).join(', ')}); name one by id`);
    else problems.push(`"${selector}": no account with this id or title in connection ${connectionId}`);
  }
  if (problems.length > 0) {
    throw new ExitError(ExitCode.notFound, `some accounts did not resolve in workspace ${ws}:\n  ${problems.join('\n  ')}`);
  }
  return [...out.values()];
}
