import { suggest } from '../../util/suggest.js';
import { listConnections } from '../../api/connections.js';
import { listAccounts, listAccountsV3, remoteIdLookup, type AccountV31 } from '../../api/accounts.js';
import type { Service } from '../../api/service.js';
import { ApiError } from '../../errors.js';
import { collect } from '../../util/collect.js';
import { idText } from '../../util/json.js';
import type { AccountsEntry } from '../kinds-file.js';
import type { Change, WorkspacePlan } from './types.js';
import { withWork } from './work.js';

/**
 * Planning the fleet file's `accounts:` section in one workspace: per data source, the accounts
 * enabled for extraction, every other account of its connections disabled. The accounts are
 * named as a recipe source names them (ids, titles, remote:ID, all-active); a data source's
 * accounts are those of all its connections.
 */

/** An account of a data source, with its connection and its remote id (stable across workspaces). */
export interface SourceAccount {
  account: AccountV31;
  id: string;
  connectionId: string;
  remote: string | undefined;
}

/** The accounts of every connection of a data source in one workspace. */
export interface SourceAccounts {
  connections: string[];
  /** each with its remote id once read: `withRemotes()` reads them (the v3 lists) when first asked */
  accounts: SourceAccount[];
  withRemotes(): Promise<SourceAccounts>;
}

/** What a planner adds to a workspace's plan. */
export type PlanPart = Pick<WorkspacePlan, 'changes' | 'blocked' | 'notes'>;

/**
 * Plans with the accounts as read, and again with their remote ids when the entry names accounts
 * by remote id or the plan has something to say (which names each account by it): a plan that
 * finds nothing to do reads no v3 list.
 */
export async function withNames(
  source: SourceAccounts,
  selectors: string[],
  plan: (source: SourceAccounts, part: PlanPart) => void,
  out: PlanPart,
): Promise<void> {
  const attempt = (s: SourceAccounts) => {
    const part: PlanPart = { changes: [], blocked: [], notes: [] };
    plan(s, part);
    return part;
  };
  const remote = selectors.some((s) => s.trim().startsWith('remote:'));
  let part = attempt(remote ? await source.withRemotes() : source);
  if (!remote && part.changes.length + part.blocked.length + part.notes.length > 0)
    part = attempt(await source.withRemotes());
  out.changes.push(...part.changes);
  out.blocked.push(...part.blocked);
  out.notes.push(...part.notes);
}

/** How the file names an account: remote:ID where the service shows one, else the id. */
export const accountText = (a: SourceAccount) => (a.remote !== undefined ? `remote:${a.remote}` : a.id);

/** A connection deleted since the list was read has no accounts to enable. */
async function unlessGone<T>(read: Promise<T[]>): Promise<T[]> {
  try {
    return await read;
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return [];
    throw err;
  }
}

/**
 * Reads a data source's accounts once per workspace: the v3.1 lists of its connections (their ids
 * are the ones extracts and recipes take), and the v3 lists, for the remote ids, only when asked.
 */
export function sourceAccountsReader(api: Service, ws: string): (dataSource: string) => Promise<SourceAccounts> {
  const cache = new Map<string, Promise<SourceAccounts>>();
  return (ds) => {
    let read = cache.get(ds);
    if (!read) {
      read = (async () => {
        const connections = (await collect(listConnections(api, ws, ds))).map((c) => idText(c.id));
        const per = await Promise.all(
          connections.map(async (c) => ({ c, accounts: await unlessGone(collect(listAccounts(api, ws, c))) })),
        );
        const accounts = per.flatMap(({ c, accounts }) =>
          accounts.map((a): SourceAccount => ({ account: a, id: idText(a.id), connectionId: c, remote: undefined })),
        );
        let named: Promise<SourceAccounts> | undefined;
        const withRemotes = () =>
          (named ??= Promise.all(
            connections.map((c) => unlessGone(collect(listAccountsV3(api, ws, c))).then(remoteIdLookup)),
          ).then((lookups) => ({
            connections,
            accounts: accounts.map((a) => ({ ...a, remote: lookups[connections.indexOf(a.connectionId)]!(a.account) })),
            withRemotes,
          })));
        return { connections, accounts, withRemotes };
      })();
      cache.set(ds, read);
    }
    return read;
  };
}

/**
 * The accounts selectors name among a data source's: `all-active`, `remote:ID`, an id, a title
 * (exact, else in any letter case). Each selector that names none is a problem; a selector that
 * names several accounts (a title or remote id on two connections) takes each.
 */
export function matchAccounts(
  selectors: string[],
  all: SourceAccount[],
): { matched: SourceAccount[]; problems: Array<{ selector: string; reason: string }> } {
  const matched = new Set<SourceAccount>();
  const problems: Array<{ selector: string; reason: string }> = [];
  for (const raw of selectors) {
    const s = raw.trim();
    let found: SourceAccount[];
    if (s === 'all-active') {
      found = all.filter((a) => a.account.is_active);
      if (found.length === 0 && all.length > 0) problems.push({ selector: s, reason: 'no account is active' });
      found.forEach((a) => matched.add(a));
      continue;
    }
    if (s.startsWith('remote:')) found = all.filter((a) => a.remote === s.slice('remote:'.length));
    else if (/^\d+$/.test(s)) found = all.filter((a) => a.id === s);
    else {
      found = all.filter((a) => a.account.title === s);
      if (found.length === 0) found = all.filter((a) => a.account.title.toLowerCase() === s.toLowerCase());
    }
    if (found.length === 0) {
      const bare = !s.startsWith('remote:') && all.some((a) => a.remote === s);
      problems.push({
        selector: s,
        reason: bare ? `no such account; the remote account id is written remote:${s}` : 'no such account',
      });
    }
    found.forEach((a) => matched.add(a));
  }
  return { matched: [...matched], problems };
}

/** What apply sends for an accounts change: per connection, the ids to enable and to disable. */
export interface AccountsWork {
  connections: Array<{ connectionId: string; enable: string[]; disable: string[] }>;
}

export async function planAccounts(
  ws: string,
  entries: AccountsEntry[],
  readSource: (ds: string) => Promise<SourceAccounts>,
  out: PlanPart,
): Promise<void> {
  const read = await Promise.all(entries.map((e) => readSource(e.dataSource)));
  for (const [i, entry] of entries.entries())
    await withNames(read[i]!, entry.enabled, (source, part) => planEntry(ws, entry, source, part), out);
}

function planEntry(ws: string, entry: AccountsEntry, source: SourceAccounts, out: PlanPart): void {
  const name = entry.dataSource;
  if (source.connections.length === 0) {
    if (entry.enabled.length > 0)
      out.blocked.push({
        resource: 'account',
        name,
        code: 'connection_not_found',
        message: `workspace ${ws} has no ${name} connection; connect it first (\`${suggest(['iframe-url', '--type', 'datasource', '--name', name], { workspace: ws })}\`)`,
      });
    return;
  }
  const { matched, problems } = matchAccounts(entry.enabled, source.accounts);
  for (const p of problems)
    out.blocked.push({
      resource: 'account',
      name,
      code: 'account_unresolved',
      message: `${name} account ${p.selector} in workspace ${ws}: ${p.reason} (\`${suggest(['accounts', 'list', '--connection', source.connections[0]!, '--remote'], { workspace: ws })}\` lists them)`,
    });
  const chosen = new Set(matched);
  const enable = matched.filter((a) => a.account.enabled_for_embedded_extraction !== true);
  const disable = source.accounts.filter((a) => a.account.enabled_for_embedded_extraction === true && !chosen.has(a));
  if (enable.length === 0 && disable.length === 0) return;
  const change: Change = {
    resource: 'account',
    name,
    action: 'update',
    id: null,
    detail: { enable: enable.map(accountText), disable: disable.map(accountText) },
  };
  const byConnection = new Map<string, { connectionId: string; enable: string[]; disable: string[] }>();
  const of = (c: string) => {
    let x = byConnection.get(c);
    if (!x) byConnection.set(c, (x = { connectionId: c, enable: [], disable: [] }));
    return x;
  };
  for (const a of enable) of(a.connectionId).enable.push(a.id);
  for (const a of disable) of(a.connectionId).disable.push(a.id);
  withWork<AccountsWork>(change, { connections: [...byConnection.values()] });
  out.changes.push(change);
}
