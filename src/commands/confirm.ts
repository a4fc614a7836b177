import type { Context } from '../context.js';
import { ExitCode, ExitError, UsageError } from '../errors.js';

/**
 * Destructive verbs: a person at a terminal confirms; anywhere else `--yes` is required
 * (cli-design: never prompt without a terminal). Declining exits 1 with nothing changed.
 */
export async function confirmOrRequireYes(ctx: Context, yes: boolean | undefined, action: string, question: string): Promise<void> {
  if (yes) return;
  if (!ctx.interactive) {
    throw new UsageError(`${action} cannot be undone; pass --yes to confirm (no prompt: not a terminal, CI set, or --no-input)`);
  }
  const { confirm } = await ctx.prompts();
  const ok = await confirm({ message: question, default: false }, ctx.promptContext());
  if (!ok) throw new ExitError(ExitCode.failure, 'not confirmed; nothing was changed');
}
