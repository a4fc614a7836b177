import type { Context } from '../../context.js';
import type { EnableOptions } from './command.js';
import { setExtraction } from './shared/extraction.js';

export function runEnable(opts: EnableOptions, ctx: Context): Promise<void> {
  return setExtraction(ctx, opts, true);
}
