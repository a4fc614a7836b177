import type { Context } from '../../context.js';
import type { PauseOptions } from './command.js';
import { setPaused } from './shared/paused.js';

export async function runPause(opts: PauseOptions, ctx: Context): Promise<void> {
  await setPaused(ctx, opts.args[0], true);
}
