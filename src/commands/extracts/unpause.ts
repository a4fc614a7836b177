import type { Context } from '../../context.js';
import { bulkForm, dataSourcesOf, idWords, runBulk } from '../shared/bulk.js';
import type { UnpauseOptions } from './command.js';
import { setPaused } from './shared/paused.js';

export async function runUnpause(opts: UnpauseOptions, ctx: Context): Promise<void> {
  const ids = idWords(opts.args[0], 'extract id');
  if (bulkForm(ctx, opts, ids.length === 1, opts.dataSource !== undefined))
    return runBulk(ctx, opts, {
      action: 'extracts.unpause',
      ids,
      selection: { dataSources: dataSourcesOf(opts.dataSource) },
    });
  await setPaused(ctx, opts.args[0][0]!, false);
}
