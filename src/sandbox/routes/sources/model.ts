import { notFound } from '../../errors.js';
import type { Store } from '../../store.js';
import type { Account, Connection, DataSource } from '../../types.js';

/**
 * Lookups and response shapes shared by the sources routes: data sources, live connections
 * of a workspace, and accounts in their v3 and v3.1 forms.
 */

export function dataSource(store: Store, name: string): DataSource | undefined {
  return store.state.datasources.find((d) => d.name === name);
}

/** A connection of this workspace that has not been deleted, or 404. */
export function liveConnection(store: Store, workspaceId: number, id: number, datasourceName?: string): Connection {
  const c = store.state.connections.find((x) => x.id === id);
  if (
    !c ||
    c.deleted ||
    c.workspace_id !== workspaceId ||
    (datasourceName !== undefined && c.datasource_name !== datasourceName)
  ) {
    throw notFound('Connection not found.');
  }
  return c;
}

interface AccountIndex {
  accounts: Account[];
  length: number;
  byConnection: Map<number, Account[]>;
}

const indexes = new WeakMap<Store, AccountIndex>();

/**
 * Accounts of a connection in `id` order. Accounts are only ever appended, so an index keyed
 * on the collection and its length stays valid until one is added; with `--scale 1000` a
 * page request would otherwise scan 100,000 accounts.
 */
export function accountsOf(store: Store, connectionId: number): Account[] {
  const all = store.state.accounts;
  let index = indexes.get(store);
  if (!index || index.accounts !== all || index.length !== all.length) {
    const byConnection = new Map<number, Account[]>();
    for (const a of all) {
      let list = byConnection.get(a.connection_id);
      if (!list) byConnection.set(a.connection_id, (list = []));
      list.push(a);
    }
    for (const list of byConnection.values()) list.sort((a, b) => a.id - b.id);
    index = { accounts: all, length: all.length, byConnection };
    indexes.set(store, index);
  }
  return index.byConnection.get(connectionId) ?? [];
}

export function connectionView(store: Store, c: Connection): Record<string, unknown> {
  const accounts = accountsOf(store, c.id);
  return {
    id: c.id,
    title: c.title,
    datasource_name: c.datasource_name,
    created_at: c.created_at,
    accounts_number: accounts.length,
    enabled_for_extraction_accounts_number: accounts.filter((a) => a.enabled_for_embedded_extraction).length,
  };
}

/** Account (v3): remote `account_id`, `item`, and `currency` as "" when there is none. */
export function accountV3(a: Account): Record<string, unknown> {
  return {
    id: a.id,
    account_id: a.account_id,
    title: a.title,
    currency: a.currency ?? '',
    connection_id: a.connection_id,
    datasource_name: a.datasource_name,
    created_at: a.created_at,
    updated_at: a.updated_at,
    is_active: a.is_active,
    enabled_for_embedded_extraction: a.enabled_for_embedded_extraction,
    item: a.item,
  };
}

/** Account (v3.1): no `item`, no second identifier, `currency` null when there is none. */
export function accountV31(a: Account): Record<string, unknown> {
  return {
    id: a.id,
    title: a.title,
    connection_id: a.connection_id,
    datasource_name: a.datasource_name,
    is_active: a.is_active,
    enabled_for_embedded_extraction: a.enabled_for_embedded_extraction,
    currency: a.currency,
    additional_params: a.additional_params,
    created_at: a.created_at,
    updated_at: a.updated_at,
  };
}

function titles(store: Store, workspaceId: number): { agency_title: string; workspace_title: string } {
  return { agency_title: store.state.agency.title, workspace_title: store.workspace(workspaceId)?.title ?? '' };
}

/** Extra keys of the Connection event shape (docs/contract-rules.md, Payload shapes). */
export function connectionEventData(store: Store, c: Connection): Record<string, string> {
  return {
    ...titles(store, c.workspace_id),
    datasource_connection_id: String(c.id),
    datasource_name: c.datasource_name,
    datasource_connection_title: c.title,
  };
}

/** Extra keys of the Account event shape. */
export function accountEventData(store: Store, a: Account, c: Connection): Record<string, string> {
  return {
    datasource_account_id: String(a.id),
    datasource_remote_account_id: a.account_id,
    datasource_remote_account_name: a.title,
    datasource_connection_id: String(c.id),
    datasource_connection_title: c.title,
    ...titles(store, a.workspace_id),
  };
}

/** Extra keys of the Extraction event shape. */
export function extractionEventData(store: Store, workspaceId: number, extractId: number): Record<string, string> {
  return {
    is_action_log: 'false',
    ...titles(store, workspaceId),
    dts_order_params_id: String(extractId),
    order_id: String(extractId),
  };
}
