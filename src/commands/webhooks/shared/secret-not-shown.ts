import type { Context } from '../../../context.js';
import { ExitError } from '../../../errors.js';

/**
 * Endpoints whose new secret never reached the reader (the output was closed before it was
 * shown): the service shows a secret once, so the way back is a new one (exit 141).
 */
export function secretsNotShown(ctx: Context, endpoints: Array<{ id: string; workspace: string }>): ExitError {
  const commands = endpoints.map((e) => ctx.hint('webhooks', 'rotate-secret', e.id, '-w', e.workspace));
  const which = endpoints.map((e) => e.id).join(', ');
  return new ExitError(
    'outputClosed',
    `the secret of webhook endpoint${endpoints.length > 1 ? 's' : ''} ${which} could not be shown (the output was closed) and the service shows it only once; make a new one with ${commands.map((c) => `\`${c}\``).join(', ')}`,
  );
}
