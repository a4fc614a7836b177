import type { Context } from '../../context.js';
import type { DisableOptions } from './command.js';
import { setExtraction } from './shared/extraction.js';

export function runDisable(opts: DisableOptions, ctx: Context): Promise<void> {
  return setExtraction(ctx, opts, false);
}
