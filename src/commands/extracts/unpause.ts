import type { Context } from '../../context.js';
import type { UnpauseOptions } from './command.js';
import { setPaused } from './shared/paused.js';

export async function runUnpause(opts: UnpauseOptions, ctx: Context): Promise<void> {
  await setPaused(ctx, opts.args[0], false);
}
