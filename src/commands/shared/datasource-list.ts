import type { ListOptions as PageOptions, Service } from '../../api/service.js';
import type { Context } from '../../context.js';
import type { Column } from '../../output/output.js';
import { suggestingDataSource } from './datasource-names.js';
import { limitOf, parseName } from './options.js';

/** The flags of a list of one data source's things. */
export type DataSourceListFlags = { dataSource: string; limit?: string | undefined };

/**
 * Lists one data source's things in the run's workspace (`--data-source`, `--limit`): the flags
 * checked before anything is sent, every page up to the limit, and, when the service refuses
 * the name, the closest data source names as a hint.
 */
export async function listOfDataSource<T>(
  ctx: Context,
  opts: DataSourceListFlags,
  read: (api: Service, ws: string, datasource: string, page: PageOptions) => AsyncIterable<T>,
  columns: Array<Column<T>>,
  empty: (datasource: string, ws: string) => string,
): Promise<void> {
  const datasource = parseName(opts.dataSource, '--data-source');
  const limit = limitOf(opts.limit);
  const ws = ctx.requireWorkspace();
  const api = await ctx.api();
  await suggestingDataSource(api, ws, datasource, () =>
    ctx.output.list(read(api, ws, datasource, { limit }), columns, { empty: empty(datasource, ws) }),
  );
}
