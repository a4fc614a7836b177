import type { Context } from '../../../context.js';
import { ExitError, UsageError } from '../../../errors.js';
import { keepsWrites } from '../../../output/io.js';

/**
 * A secret the service shows only once (a new endpoint's, a rotated one) goes where it is known
 * to be read: a terminal or a file; a program that asked for it (--json, --jq, --ndjson) or the
 * secrets file. A pipe or a socket takes a line into its buffer whether or not its reader reads
 * it (`| head -1` reads the buffer and prints one line), so a verb that would print a secret
 * there for a person refuses before anything is sent (exit 2).
 */
export function requireSecretReader(ctx: Context, secretsFile: string | undefined, what: string): void {
  if (secretsFile !== undefined || ctx.output.machine || keepsWrites(ctx.io.stdout)) return;
  throw new UsageError(
    `${what}, and standard output is a pipe, whose reader may drop lines unread (\`| head -1\`): nothing was sent; pass --secrets-file FILE to write the secret to FILE (0600), or --json for a program to read it`,
  );
}

/** An endpoint whose secret this run printed. */
export interface PrintedSecret {
  id: string;
  workspace: string;
}

/**
 * After a run printed the secrets of `endpoints`: the failure (exit 141) naming every one, with
 * the command that makes a new secret, unless each is known to have been read. Any output of the
 * run lost (a closed pipe) counts for all of them: a line that came before the lost one may
 * still be unread in the pipe's buffer. A secret printed for a person to a pipe (its secrets
 * file could not be written) is not known to have been read either.
 */
export async function unreadSecrets(ctx: Context, endpoints: PrintedSecret[]): Promise<ExitError | undefined> {
  if (endpoints.length === 0) return undefined;
  // --jq: the filtered document is written now, so that its loss is known here.
  await ctx.flushOutput();
  if (!(await ctx.output.intact(ctx.io.stdout, ctx.io.stderr)))
    return secretsNotShown(ctx, endpoints, 'part of the output was lost: a stream was closed');
  if (!ctx.output.machine && !keepsWrites(ctx.io.stdout))
    return secretsNotShown(ctx, endpoints, 'printed to a pipe, whose reader may drop lines unread');
  return undefined;
}

/**
 * Endpoints whose new secret may never have reached the reader: the service shows a secret once,
 * so the way back is a new one (exit 141).
 */
export function secretsNotShown(ctx: Context, endpoints: PrintedSecret[], why: string): ExitError {
  const commands = endpoints.map((e) => ctx.hint('webhooks', 'rotate-secret', e.id, '-w', e.workspace));
  const which = endpoints.map((e) => e.id).join(', ');
  const many = endpoints.length > 1;
  return new ExitError(
    'outputClosed',
    `the secret${many ? 's' : ''} of webhook endpoint${many ? 's' : ''} ${which} may not have been read (${why}), and the service shows a secret only once; make ${many ? 'new ones' : 'a new one'} with ${commands.map((c) => `\`${c}\``).join(', ')} (add --secrets-file FILE to keep it in a file)`,
  );
}
