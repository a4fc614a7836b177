import { randomBytes } from 'node:crypto';
import { DEMO_DATASOURCES } from '../seed.js';
import type { Store } from '../store.js';
import type { Account, Connection } from '../types.js';

/**
 * What the external user's sign-in produces, shared by the iframe and link pages and the
 * `/_sandbox/external-auth-links/{id}/use` control: the provider's accounts offered, and the
 * connection made with the ones kept.
 */

/** An account the (simulated) provider lists after sign-in. */
export interface Candidate {
  remote: string;
  title: string;
}

/** How many accounts a sandbox sign-in finds. */
export const CANDIDATE_COUNT = 3;

/**
 * The accounts a sign-in finds, the same for the same seed. Remote ids do not appear in the
 * titles, so that a search by remote id finds nothing (v3.1 accounts rule 5).
 */
export function candidatesFor(seed: number): Candidate[] {
  return Array.from({ length: CANDIDATE_COUNT }, (_, k) => {
    const i = k + 1;
    return { remote: String(7_000_000 + seed * 10 + i), title: `Client account ${i}` };
  });
}

/** A number for `candidatesFor` from a string (an iframe code): stable, small. */
export function seedOf(text: string): number {
  let h = 0;
  for (const c of text) h = (h * 31 + c.charCodeAt(0)) % 90_000;
  return 100_000 + h;
}

export interface NewConnection {
  workspaceId: number;
  datasourceName: string;
  title: string;
  /** who signed in, kept in each account's `additional_params` */
  connectedBy: string;
  accounts: Candidate[];
}

/**
 * A connection with its accounts, as the service makes one once the external user has signed
 * in (and picked accounts). The new connector is announced with `workspace_connector_changed`;
 * `connection_created` and `account_created` are among the contract's silent types (no
 * production events), so the sandbox does not emit them either.
 */
export function createConnection(store: Store, o: NewConnection): Connection {
  const now = store.clock.iso();
  const demo = DEMO_DATASOURCES.find((d) => d.name === o.datasourceName);
  const connection: Connection = {
    id: store.nextId('connection'),
    workspace_id: o.workspaceId,
    datasource_name: o.datasourceName,
    title: o.title,
    created_at: now,
    deleted: false,
  };
  store.state.connections.push(connection);
  for (const c of o.accounts) {
    const account: Account = {
      id: store.nextId('account'),
      workspace_id: o.workspaceId,
      connection_id: connection.id,
      datasource_name: o.datasourceName,
      account_id: c.remote,
      title: c.title,
      currency: demo ? demo.currency : 'USD',
      is_active: true,
      enabled_for_embedded_extraction: false,
      additional_params: { connected_by: o.connectedBy },
      item: { remote_id: c.remote, name: c.title, timezone: 'UTC' },
      created_at: now,
      updated_at: now,
    };
    store.state.accounts.push(account);
  }
  store.emit('workspace_connector_changed', o.workspaceId, 'Workspace', {
    agency_title: store.state.agency.title,
    workspace_title: store.workspace(o.workspaceId)?.title ?? '',
  });
  store.changed();
  return connection;
}

export function flowId(): string {
  return randomBytes(12).toString('base64url');
}
