import type { FastifyInstance } from 'fastify';
import {
  accountBulkItem,
  accountBulkList,
  accountBulkToggle,
  accountToggle,
  searchQuery,
} from '../../../contract/requests.js';
import { badRequest, notFound } from '../../errors.js';
import { paginate, parseBody, pathId, queryOf, requireBearer } from '../../http.js';
import type { Store } from '../../store.js';
import type { Account, Connection } from '../../types.js';
import { accountEventData, accountsOf, accountV3, accountV31, liveConnection } from './model.js';
import { serve } from '../../operations.js';

/**
 * `search` is a case-insensitive substring of the title, and a value of only digits also
 * matches the account with that `id`; blank means no filter (docs/contract-rules.md, v3.1
 * accounts rule 2). Rule 5: the remote `account_id` is never searched.
 */
export function searchAccounts(accounts: Account[], search: string | undefined): Account[] {
  const term = (search ?? '').trim();
  if (term === '') return accounts;
  const lower = term.toLowerCase();
  const id = /^\d+$/.test(term) ? Number(term) : undefined;
  return accounts.filter((a) => a.id === id || a.title.toLowerCase().includes(lower));
}

function setExtraction(store: Store, c: Connection, a: Account, enabled: boolean): void {
  if (a.enabled_for_embedded_extraction === enabled) return;
  a.enabled_for_embedded_extraction = enabled;
  a.updated_at = store.clock.iso();
  store.emit('enabled_for_embedded_extraction_changed', a.workspace_id, 'Account', accountEventData(store, a, c));
}

export function accountRoutes(app: FastifyInstance, store: Store): void {
  const connectionOf = (connectionId: string, workspaceId: number) =>
    liveConnection(store, workspaceId, pathId(connectionId));

  serve<{ Params: { connection_id: string } }>(app, 'v3.accounts.list', async (request) => {
    const { workspaceId } = requireBearer(store, request);
    const c = connectionOf(request.params.connection_id, workspaceId);
    const page = paginate(request, accountsOf(store, c.id), { mode: 'v3' });
    return { ...page, results: page.results.map(accountV3) };
  });

  // Rules 1-4 of the v3.1 accounts list (docs/contract-rules.md, v3.1 accounts rules 1-4): the slash is part of
  // the path (the slashless form answers 301 from the not-found handler), bad paging is 400, another workspace's
  // connection 404.
  serve<{ Params: { connection_id: string } }>(
    app,
    'accounts.list',
    { config: { query: searchQuery } },
    async (request) => {
      const { workspaceId } = requireBearer(store, request);
      const c = connectionOf(request.params.connection_id, workspaceId);
      const matching = searchAccounts(accountsOf(store, c.id), queryOf(request).search);
      const page = paginate(request, matching, { mode: 'v31', maxPageSize: 100, defaultPageSize: 100 });
      return { ...page, results: page.results.map(accountV31) };
    },
  );

  // One account or a list: `{id, enabled_for_embedded_extraction}` or an array of them. All
  // ids must belong to the connection, else nothing changes.
  serve<{ Params: { connection_id: string } }>(
    app,
    'accounts.setActive',
    { config: { body: accountBulkToggle } },
    async (request) => {
      const { workspaceId } = requireBearer(store, request);
      const c = connectionOf(request.params.connection_id, workspaceId);
      const many = Array.isArray(request.body);
      const items = many ? parseBody(accountBulkList, request.body) : [parseBody(accountBulkItem, request.body)];
      const own = new Map(accountsOf(store, c.id).map((a) => [a.id, a]));
      const seen = new Set<number>();
      const unknown: number[] = [];
      const duplicate: number[] = [];
      for (const item of items) {
        if (!own.has(item.id)) unknown.push(item.id);
        if (seen.has(item.id)) duplicate.push(item.id);
        seen.add(item.id);
      }
      if (unknown.length > 0)
        throw badRequest(`Accounts not found in connection ${c.id}: ${unknown.join(', ')}.`, { ids: unknown });
      if (duplicate.length > 0)
        throw badRequest(`Accounts listed more than once: ${duplicate.join(', ')}.`, { ids: duplicate });
      const updated = items.map((item) => {
        const a = own.get(item.id)!;
        setExtraction(store, c, a, item.enabled_for_embedded_extraction);
        return a;
      });
      store.changed();
      return many ? updated.map(accountV3) : accountV3(updated[0]!);
    },
  );

  // `{account_id}` here is the internal account `id` (the remote id is not a path segment:
  // some contain a slash, such as "properties/310001").
  serve<{ Params: { connection_id: string; account_id: string } }>(
    app,
    'accounts.setOneActive',
    { config: { body: accountToggle } },
    async (request) => {
      const { workspaceId } = requireBearer(store, request);
      const c = connectionOf(request.params.connection_id, workspaceId);
      const accountId = pathId(request.params.account_id);
      const a = accountsOf(store, c.id).find((x) => x.id === accountId);
      if (!a) throw notFound('Account not found.');
      const { enabled_for_embedded_extraction } = parseBody(accountToggle, request.body);
      setExtraction(store, c, a, enabled_for_embedded_extraction);
      store.changed();
      return accountV3(a);
    },
  );
}
