import { listConnections } from '../api/connections.js';
import { resolveAccounts, UnresolvedAccountsError, type ResolvedAccount } from '../accounts/select.js';
import type { Recipe } from '../api/recipes.js';
import type { Service } from '../api/service.js';
import { ApiError, ExitError, UsageError } from '../errors.js';
import { idText } from '../util/json.js';
import { collect } from '../util/collect.js';
import { suggest } from '../util/suggest.js';

export interface ResolvedSource {
  dataSource: string;
  connectionId: string;
  accounts: ResolvedAccount[];
}

export interface ConnectionCandidate {
  id: string;
  title: string | undefined;
}

/**
 * A data source with several connections in a workspace, none of them named, none already in
 * the recipe, and the accounts not telling them apart. Each caller attaches its own way to
 * name one (`withHint`): a flag, a command, a change to a file.
 */
export class AmbiguousConnectionError extends UsageError {
  constructor(
    readonly workspaceId: string,
    readonly dataSource: string,
    readonly connections: ConnectionCandidate[],
    /** the connections where every account resolves */
    readonly resolvedIn: string[],
  ) {
    const n = connections.length;
    const where =
      resolvedIn.length === 0
        ? 'none of them'
        : resolvedIn.length === n
          ? n === 2
            ? 'both'
            : `all ${n}`
          : `${resolvedIn.length} of them`;
    const shown = resolvedIn.length > 0 ? connections.filter((c) => resolvedIn.includes(c.id)) : connections;
    super(
      `workspace ${workspaceId} has ${n} ${dataSource} connections and the accounts resolve in ${where}: ${shown.map(candidateText).join(', ')}`,
    );
  }

  /** The connection a suggested command names: the first where the accounts resolve, else the first. */
  get suggested(): string {
    return this.resolvedIn[0] ?? this.connections[0]!.id;
  }

  /** `1001 or 1013`: the connections to choose from. */
  get choices(): string {
    const ids = this.resolvedIn.length > 0 ? this.resolvedIn : this.connections.map((c) => c.id);
    return ids.length <= 2 ? ids.join(' or ') : `${ids.slice(0, -1).join(', ')} or ${ids.at(-1)!}`;
  }
}

/** The workspace has no connection of the data source (exit 5). */
export class NoConnectionError extends ExitError {
  constructor(
    readonly workspaceId: string,
    readonly dataSource: string,
  ) {
    super('notFound', `workspace ${workspaceId} has no ${dataSource} connection`);
  }
}

const candidateText = (c: ConnectionCandidate) => (c.title ? `${c.id} "${c.title}"` : c.id);

/** How a connection was chosen: named by the caller, the recipe's own, the workspace's only one, or the one where the accounts resolve. */
export type ConnectionOrigin = 'named' | 'recipe' | 'only' | 'accounts';

export interface ChosenConnection {
  connectionId: string;
  from: ConnectionOrigin;
  /** the accounts, when choosing resolved them */
  accounts?: ResolvedAccount[] | undefined;
}

/**
 * The connection of one data source in one workspace, by one rule for every caller (deploy,
 * the fleet's plan and apply, configure): the one named; else the one the recipe already has
 * for the data source (the configuration only grows, so additions go where its accounts are;
 * the first, when it has several); else the workspace's only one; else, among several, the
 * one where every account resolves. Several or none of those is an AmbiguousConnectionError:
 * guessing would append accounts of a connection nobody chose. A recipe's connection is taken
 * without listing the workspace's, so that one deleted since is still the recipe's (its
 * accounts are then inactive, and reading them answers 404).
 */
export async function chooseConnection(
  api: Service,
  ws: string,
  dataSource: string,
  selectors: string[],
  named: string | undefined,
  configured: Recipe['connections'] | undefined,
): Promise<ChosenConnection> {
  if (named !== undefined) return { connectionId: named, from: 'named' };
  const own = (configured ?? []).find((c) => c.connection_data_source === dataSource);
  if (own) return { connectionId: idText(own.connection_id), from: 'recipe' };
  const listed = await collect(listConnections(api, ws, dataSource));
  const connections = listed.map((c) => ({
    id: idText(c.id),
    title: typeof c.title === 'string' ? c.title : undefined,
  }));
  if (connections.length === 0) throw new NoConnectionError(ws, dataSource);
  if (connections.length === 1) return { connectionId: connections[0]!.id, from: 'only' };
  const fits: Array<{ id: string; accounts: ResolvedAccount[] }> = [];
  for (const { id } of connections) {
    try {
      fits.push({ id, accounts: await resolveAccounts(api, ws, id, selectors) });
    } catch (err) {
      if (!(err instanceof UnresolvedAccountsError)) throw err;
    }
  }
  if (fits.length === 1) return { connectionId: fits[0]!.id, from: 'accounts', accounts: fits[0]!.accounts };
  throw new AmbiguousConnectionError(
    ws,
    dataSource,
    connections,
    fits.map((f) => f.id),
  );
}

/**
 * The connection and accounts of one data source in one workspace (docs/contract-rules.md,
 * Deployment sequence step 4: internal ids differ between workspaces, so they are resolved in
 * each), the connection chosen by `chooseConnection`'s rule. `configured` is the recipe's
 * `connections[]` when it has any.
 */
export async function resolveSource(
  api: Service,
  ws: string,
  dataSource: string,
  selectors: string[],
  connectionId?: string,
  configured?: Recipe['connections'],
): Promise<ResolvedSource> {
  const chosen = await chooseConnection(api, ws, dataSource, selectors, connectionId, configured);
  if (chosen.accounts) return { dataSource, connectionId: chosen.connectionId, accounts: chosen.accounts };
  try {
    return {
      dataSource,
      connectionId: chosen.connectionId,
      accounts: await resolveAccounts(api, ws, chosen.connectionId, selectors),
    };
  } catch (err) {
    if (chosen.from === 'recipe' && err instanceof ApiError && err.status === 404)
      throw new ExitError(
        'notFound',
        `the recipe's ${dataSource} connection ${chosen.connectionId} was deleted from workspace ${ws}; its accounts stay in the configuration, inactive. To add accounts of another connection, name it (\`${suggest(['connections', 'list', '--data-source', dataSource], { workspace: ws })}\` lists them)`,
      );
    throw err;
  }
}
