import type { Context } from '../../context.js';
import type { CompletionOptions } from './command.js';
import { completionScript } from './shared/scripts.js';

export async function runCompletion(opts: CompletionOptions, ctx: Context): Promise<void> {
  ctx.output.write(completionScript(opts.args[0]));
}
