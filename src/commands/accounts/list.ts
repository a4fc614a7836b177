import { listAccounts, listAccountsV3, remoteIdLookup, type AccountV31 } from '../../api/accounts.js';
import type { Without } from '../../contract/answers.js';
import type { Context } from '../../context.js';
import type { Column } from '../../output/output.js';
import { collect } from '../../util/collect.js';
import { parseId } from '../../util/validate.js';
import { limitOf } from '../shared/options.js';
import type { ListOptions } from './command.js';

/** A v3.1 account with the remote id v3 gives it (`--remote-ids`). */
type ListedAccount = Without<AccountV31, 'account_id'> & { account_id?: string | null };

const columns: Array<Column<ListedAccount>> = [
  { header: 'ID', value: (a) => a.id },
  { header: 'TITLE', value: (a) => a.title },
  { header: 'ACTIVE', value: (a) => a.is_active, style: (t, a, c) => (a.is_active ? t : c.dim(t)) },
  { header: 'ENABLED FOR EXTRACTION', value: (a) => a.enabled_for_embedded_extraction },
  { header: 'CURRENCY', value: (a) => a.currency },
];

async function* onlyActive<T extends { is_active: boolean }>(
  items: AsyncIterable<T>,
  limit: number | undefined,
): AsyncGenerator<T> {
  if (limit !== undefined && limit <= 0) return;
  let n = 0;
  for await (const item of items) {
    if (!item.is_active) continue;
    yield item;
    if (++n === limit) return;
  }
}

async function* withRemoteIds(
  items: AsyncIterable<ListedAccount>,
  remoteOf: (a: ListedAccount) => string | undefined,
): AsyncGenerator<ListedAccount> {
  for await (const item of items) yield { ...item, account_id: remoteOf(item) ?? null };
}

/**
 * The v3.1 list, every page, streamed. `--active` filters here (the service has no such
 * filter), so `--limit` then counts active accounts. `--remote` reads the v3 list first and
 * adds its `account_id` to each item.
 */
export async function runList(opts: ListOptions, ctx: Context): Promise<void> {
  const connectionId = parseId(opts.connection, '--connection');
  const limit = limitOf(opts.limit);
  // A blank search means no filter (docs/contract-rules.md, v3.1 accounts rule 2), so it is not sent.
  const search = opts.search !== undefined && opts.search.trim() !== '' ? opts.search : undefined;
  const ws = ctx.requireWorkspace();
  const api = await ctx.api();
  const fetched = listAccounts(api, ws, connectionId, { search }, { limit: opts.active ? undefined : limit });
  let items: AsyncIterable<ListedAccount> = opts.active ? onlyActive(fetched, limit) : fetched;
  let shown = columns;
  if (opts.remote) {
    items = withRemoteIds(items, remoteIdLookup(await collect(listAccountsV3(api, ws, connectionId))));
    shown = [...columns, { header: 'REMOTE ACCOUNT_ID', value: (a) => a.account_id }];
  }
  await ctx.output.list(items, shown, {
    empty: `No ${opts.active ? 'active ' : ''}accounts${search ? ` matching "${search}"` : ''} in connection ${connectionId}.`,
  });
}
