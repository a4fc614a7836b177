import type { Context } from '../../context.js';
import { bulkForm, idWords, runBulk } from '../shared/bulk.js';
import type { PauseOptions } from './command.js';
import { setPaused } from './shared/paused.js';

export async function runPause(opts: PauseOptions, ctx: Context): Promise<void> {
  const ids = idWords(opts.args[0], 'load id');
  if (bulkForm(ctx, opts, ids.length === 1, false))
    return runBulk(ctx, opts, { action: 'loads.pause', ids, selection: {} });
  await setPaused(ctx, opts.args[0][0]!, true);
}
