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

/**
 * A verb that changes workspaces after a question (`apply`, a bulk action): off a terminal
 * nobody can be asked, so it is refused before any request unless --yes. `what` names the
 * command, `verb` what --yes lets it do.
 */
export function requireYesOffTerminal(ctx: Context, yes: boolean | undefined, what: string, verb: string): void {
  if (!yes && !ctx.interactive)
    throw new UsageError(
      `${what} changes workspaces; pass --yes to ${verb} without a prompt (no prompt: not a terminal, CI set, or --no-input)`,
    );
}
