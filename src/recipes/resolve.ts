import { listConnections } from '../api/connections.js';
import { resolveAccounts, UnresolvedAccountsError, type ResolvedAccount } from '../accounts/select.js';
import type { Service } from '../api/service.js';
import { ExitError, UsageError } from '../errors.js';
import { idText } from '../util/json.js';
import { collect } from '../util/collect.js';

export interface ResolvedSource {
  dataSource: string;
  connectionId: string;
  accounts: ResolvedAccount[];
}

/**
 * The connection and accounts of one data source in one workspace (docs/contract-rules.md,
 * Deployment sequence step 4: internal ids differ between workspaces, so they are resolved in
 * each). Without a connection id, the workspace's only connection of the data source is taken;
 * among several, the one where every selector resolves.
 */
export async function resolveSource(
  api: Service,
  ws: string,
  dataSource: string,
  selectors: string[],
  connectionId?: string,
): Promise<ResolvedSource> {
  if (connectionId)
    return { dataSource, connectionId, accounts: await resolveAccounts(api, ws, connectionId, selectors) };
  const connections = (await collect(listConnections(api, ws, dataSource))).map((c) => idText(c.id));
  if (connections.length === 0) throw new ExitError('notFound', `workspace ${ws} has no ${dataSource} connection`);
  if (connections.length === 1)
    return {
      dataSource,
      connectionId: connections[0]!,
      accounts: await resolveAccounts(api, ws, connections[0]!, selectors),
    };
  const fits: ResolvedSource[] = [];
  for (const id of connections) {
    try {
      fits.push({ dataSource, connectionId: id, accounts: await resolveAccounts(api, ws, id, selectors) });
    } catch (err) {
      if (!(err instanceof UnresolvedAccountsError)) throw err;
    }
  }
  if (fits.length === 1) return fits[0]!;
  throw new UsageError(
    `workspace ${ws} has ${connections.length} ${dataSource} connections (${connections.join(', ')}) and the accounts ${fits.length === 0 ? 'resolve in none' : 'resolve in several'} of them: pass --connection ID`,
  );
}
