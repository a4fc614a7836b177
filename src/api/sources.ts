import { ExitError } from '../errors.js';
import { idText, jsonInteger } from '../util/json.js';
import { path } from './path.js';
import type { ListOptions, Service } from './service.js';
import { collect } from '../util/collect.js';

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

/**
 * DELETE a connection, by the data source path when the data source is given, else by
 * `/api/v3/connections/{id}`. Its accounts become inactive and its extractions pause. Not
 * repeated on a lost answer: a repeated delete answers 404.
 */
export async function deleteConnection(api: Service, ws: string, connectionId: string, datasource?: string): Promise<void> {
  const target = datasource
    ? path`/api/v3/datasources/${datasource}/connections/${connectionId}`
    : path`/api/v3/connections/${connectionId}`;
  await api.client.request({ method: 'DELETE', path: target, auth: 'bearer', workspaceId: ws });
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
    const res = await api.client.request<AccountV3>({
      method: 'PATCH',
      path: path`/api/v3/connections/${connectionId}/accounts/${accountIds[0]!}`,
      auth: 'bearer',
      workspaceId: ws,
      body: { enabled_for_embedded_extraction: enabled },
      repeatable: true,
    });
    return [res.data];
  }
  const res = await api.client.request<AccountV3 | AccountV3[]>({
    method: 'PATCH',
    path: path`/api/v3/connections/${connectionId}/accounts`,
    auth: 'bearer',
    workspaceId: ws,
    body: accountIds.map((id) => ({ id: jsonInteger(id), enabled_for_embedded_extraction: enabled })),
    repeatable: true,
  });
  return Array.isArray(res.data) ? res.data : [res.data];
}

/** External authentication link; `status` is an open set: not_used, used, expired, revoked_manually. */
export interface ExternalAuthLink {
  id: number | string;
  status: string;
  email?: string;
  url?: string;
  [key: string]: unknown;
}

export interface CreateLinksRequest {
  /** one link per address */
  to_emails: string[];
  /** false: the caller delivers the links */
  send_email: boolean;
  /** an active agency user who is a member of the workspace or the agency owner */
  requested_by?: string | undefined;
}

/** Creates one link per address. Not repeatable: a second call makes new links. */
export async function createLinks(api: Service, ws: string, datasource: string, req: CreateLinksRequest): Promise<ExternalAuthLink[]> {
  const body: Record<string, unknown> = { to_emails: req.to_emails, send_email: req.send_email };
  if (req.requested_by) body.requested_by = req.requested_by;
  const res = await api.client.request<unknown>({
    method: 'POST',
    path: path`/api/v3/datasources/${datasource}/external-auth-links`,
    auth: 'bearer',
    workspaceId: ws,
    body,
  });
  // "201 links": a list; an envelope or a single link is accepted as well.
  const data = res.data as ExternalAuthLink[] | { results?: ExternalAuthLink[] } | ExternalAuthLink;
  if (Array.isArray(data)) return data;
  if (data && Array.isArray((data as { results?: unknown }).results)) return (data as { results: ExternalAuthLink[] }).results;
  return data ? [data as ExternalAuthLink] : [];
}

/** Newest first; the service allows pages of up to 1000 links, so few requests are needed. */
export function listLinks(api: Service, ws: string, datasource: string, opts?: ListOptions): AsyncGenerator<ExternalAuthLink> {
  const pageSize = Math.max(1, Math.min(1000, opts?.limit ?? 1000));
  return api.list<ExternalAuthLink>(
    { path: path`/api/v3/datasources/${datasource}/external-auth-links`, auth: 'bearer', workspaceId: ws, pageSize },
    opts,
  );
}

/** Revoking is idempotent (200 with the existing revocation data), so a lost answer may be repeated. */
export async function revokeLink(api: Service, ws: string, datasource: string, linkId: string): Promise<ExternalAuthLink> {
  const res = await api.client.request<ExternalAuthLink>({
    method: 'POST',
    path: path`/api/v3/datasources/${datasource}/external-auth-links/${linkId}/revoke`,
    auth: 'bearer',
    workspaceId: ws,
    repeatable: true,
  });
  return res.data;
}

// ---------------------------------------------------------------- account resolution

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

export interface UnresolvedAccount {
  selector: string;
  reason: string;
}

/** Selectors that named no active account of the connection; every one is listed. */
export class UnresolvedAccountsError extends ExitError {
  constructor(
    readonly workspaceId: string,
    readonly connectionId: string,
    readonly problems: UnresolvedAccount[],
  ) {
    super(
      'notFound',
      `${problems.length} account selector${problems.length === 1 ? '' : 's'} did not resolve in workspace ${workspaceId}, connection ${connectionId}:\n` +
        problems.map((p) => `  ${p.selector}: ${p.reason}`).join('\n'),
    );
    this.name = 'UnresolvedAccountsError';
  }
}

/**
 * The remote `account_id` of a v3.1 account, from the v3 list. The two lists are joined on
 * `id`; for agencies whose v3 list carries other keys (contract, Versioning 4) an account is
 * paired with the v3 account of the same title when exactly one has it.
 */
export function remoteIdLookup(v3: AccountV3[]): (account: AccountV31) => string | undefined {
  const byId = new Map(v3.map((a) => [idText(a.id), idText(a.account_id)]));
  const byTitle = new Map<string, string | null>();
  for (const a of v3) byTitle.set(a.title, byTitle.has(a.title) ? null : idText(a.account_id));
  return (account) => byId.get(idText(account.id)) ?? byTitle.get(account.title) ?? undefined;
}

const list = (a: AccountV31[]) => a.map((x) => idText(x.id)).join(', ');

/**
 * Resolves account selectors for one connection in one workspace to internal (v3.1) ids.
 * Only active accounts qualify (contract, v3.1 accounts rule 6). A selector is an internal
 * id, a title (exact, else case-insensitive), `remote:ID` (the remote `account_id`, joined
 * through the v3 list since internal ids differ between workspaces: Deployment sequence,
 * step 4), or `all-active`. Among several accounts of one title or remote id, the single
 * active one is taken. Everything that does not resolve is listed in one
 * UnresolvedAccountsError (exit 5); a bare remote id gets a hint to write `remote:`.
 */
export async function resolveAccounts(api: Service, ws: string, connectionId: string, selectors: string[]): Promise<ResolvedAccount[]> {
  const wanted = selectors.map((s) => s.trim()).filter(Boolean);
  const needRemote = wanted.some(isRemoteSelector);
  const v3All = () => collect(listAccountsV3(api, ws, connectionId));
  const [accounts, v3] = await Promise.all([collect(listAccounts(api, ws, connectionId)), needRemote ? v3All() : Promise.resolve(undefined)]);
  let remoteOf = v3 ? remoteIdLookup(v3) : undefined;
  const byId = new Map(accounts.map((a) => [idText(a.id), a]));

  const out = new Map<string, ResolvedAccount>();
  // In selector order; a bare string is a selector that matched nothing, explained below.
  const problems: Array<UnresolvedAccount | string> = [];
  const take = (a: AccountV31) => {
    const id = idText(a.id);
    out.set(id, { id, title: a.title, account_id: remoteOf?.(a) });
  };
  /** One active account among the candidates, or a problem saying why not. */
  const pick = (selector: string, candidates: AccountV31[], what: string) => {
    const active = candidates.filter((a) => a.is_active);
    if (active.length === 1) take(active[0]!);
    else if (active.length > 1) problems.push({ selector, reason: `several active accounts have ${what} (${list(active)}); name one by id` });
    else if (candidates.length === 1) problems.push({ selector, reason: `account ${idText(candidates[0]!.id)} "${candidates[0]!.title}" is inactive` });
    else problems.push({ selector, reason: `the accounts with ${what} (${list(candidates)}) are inactive` });
  };

  for (const selector of wanted) {
    if (selector === 'all-active') {
      const active = accounts.filter((a) => a.is_active);
      if (active.length === 0) problems.push({ selector, reason: 'the connection has no active accounts' });
      active.forEach(take);
      continue;
    }
    if (isRemoteSelector(selector)) {
      const remote = selector.slice('remote:'.length);
      const matches = accounts.filter((a) => remoteOf!(a) === remote);
      if (matches.length === 0) problems.push({ selector, reason: `no account with remote account_id ${remote}` });
      else pick(selector, matches, `remote account_id ${remote}`);
      continue;
    }
    const exact = /^\d+$/.test(selector) ? byId.get(selector) : undefined;
    if (exact) {
      pick(selector, [exact], `id ${selector}`);
      continue;
    }
    let titled = accounts.filter((a) => a.title === selector);
    if (titled.length === 0) titled = accounts.filter((a) => a.title.toLowerCase() === selector.toLowerCase());
    if (titled.length > 0) pick(selector, titled, `this title`);
    else problems.push(selector);
  }

  if (problems.length === 0) return [...out.values()];
  let remotes: Set<string> | undefined;
  if (problems.some((p) => typeof p === 'string')) {
    // An operator may have typed a remote id without `remote:`: say so rather than guess,
    // since a bare number is an internal id everywhere else.
    remoteOf ??= remoteIdLookup(await v3All());
    remotes = new Set(accounts.map((a) => remoteOf!(a)).filter((r): r is string => r !== undefined));
  }
  throw new UnresolvedAccountsError(
    ws,
    connectionId,
    problems.map((p) =>
      typeof p !== 'string' ? p
      : remotes?.has(p) ? { selector: p, reason: `no account with this id or title; it is a remote account_id: write remote:${p}` }
      : { selector: p, reason: 'no account with this id or title' },
    ),
  );
}
