import type { Context } from '../../context.js';
import { bulkForm, dataSourcesOf, idWords, runBulk } from '../shared/bulk.js';
import type { PauseOptions } from './command.js';
import { setPaused } from './shared/paused.js';

export async function runPause(opts: PauseOptions, ctx: Context): Promise<void> {
  const ids = idWords(opts.args[0], 'extract id');
  if (bulkForm(ctx, opts, ids.length === 1, opts.dataSource !== undefined))
    return runBulk(ctx, opts, {
      action: 'extracts.pause',
      ids,
      selection: { dataSources: dataSourcesOf(opts.dataSource) },
    });
  await setPaused(ctx, opts.args[0][0]!, true);
}
