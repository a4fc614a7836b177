import { listAccounts, listAccountsV3, remoteIdLookup, type AccountV31 } from '../api/accounts.js';
import type { Service } from '../api/service.js';
import { ExitError } from '../errors.js';
import { collect } from '../util/collect.js';
import { idText } from '../util/json.js';

/**
 * Account selectors, the grammar an operator uses to name accounts of one connection: an
 * internal id, a title, `remote:ID` or `all-active`.
 */

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

const list = (a: AccountV31[]) => a.map((x) => idText(x.id)).join(', ');

/**
 * Resolves account selectors for one connection in one workspace to internal (v3.1) ids. Only
 * active accounts qualify (docs/contract-rules.md, v3.1 accounts rule 6). A selector is an internal
 * id, a title (exact, else case-insensitive), `remote:ID` (the remote `account_id`, joined through
 * the v3 list since internal ids differ between workspaces: docs/contract-rules.md, Deployment
 * sequence step 4), or `all-active`. Among several accounts of one title or remote id, the single
 * active one is taken. Everything that does not resolve is listed in one UnresolvedAccountsError
 * (exit 5); a bare remote id gets a hint to write `remote:`.
 */
export async function resolveAccounts(
  api: Service,
  ws: string,
  connectionId: string,
  selectors: string[],
): Promise<ResolvedAccount[]> {
  const wanted = selectors.map((s) => s.trim()).filter(Boolean);
  const needRemote = wanted.some(isRemoteSelector);
  const v3All = () => collect(listAccountsV3(api, ws, connectionId));
  const [accounts, v3] = await Promise.all([
    collect(listAccounts(api, ws, connectionId)),
    needRemote ? v3All() : Promise.resolve(undefined),
  ]);
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
    else if (active.length > 1)
      problems.push({ selector, reason: `several active accounts have ${what} (${list(active)}); name one by id` });
    else if (candidates.length === 1)
      problems.push({ selector, reason: `account ${idText(candidates[0]!.id)} "${candidates[0]!.title}" is inactive` });
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
      typeof p !== 'string'
        ? p
        : remotes?.has(p)
          ? { selector: p, reason: `no account with this id or title; it is a remote account_id: write remote:${p}` }
          : { selector: p, reason: 'no account with this id or title' },
    ),
  );
}
