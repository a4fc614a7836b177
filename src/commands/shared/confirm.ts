import type { Context } from '../../context.js';
import { NotConfirmedError, UsageError } from '../../errors.js';

/**
 * Destructive verbs: a person at a terminal confirms; anywhere else `--yes` is required
 * (no prompt off a terminal). Declining prints "not confirmed; nothing was
 * changed" and exits 11 (declined); Ctrl-C at the question prints "cancelled" and exits 130.
 */
export async function confirmOrRequireYes(
  ctx: Context,
  yes: boolean | undefined,
  action: string,
  question: string,
): Promise<void> {
  if (yes) return;
  if (!ctx.interactive) {
    throw new UsageError(
      `${action} cannot be undone; pass --yes to confirm (no prompt: not a terminal, CI set, or --no-input)`,
    );
  }
  const { confirm } = await ctx.prompts();
  const ok = await confirm({ message: question, default: false }, ctx.promptContext());
  if (!ok) throw new NotConfirmedError();
}
