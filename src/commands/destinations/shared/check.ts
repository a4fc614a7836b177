import type { DestinationConnection } from '../../../api/destinations.js';
import type { Context } from '../../../context.js';
import { ExitError, withHint } from '../../../errors.js';
import { idText } from '../../../util/json.js';

/**
 * A destination connection whose check failed (`status: error`) after a create, an update of
 * its parameters or a recheck: the connection is there, but no load can use it. The command
 * ends in exit 1 with the service's reason and the commands that fix and check it again.
 */
export function checkFailure(
  ctx: Context,
  destination: string,
  c: DestinationConnection,
  done: string,
): Error | undefined {
  if (c.status !== 'error') return undefined;
  const id = idText(c.id);
  const reason =
    typeof c.error_text === 'string' && c.error_text.trim() !== '' ? c.error_text : 'the service gave no reason';
  return withHint(
    new ExitError('failure', `${done}, but its check failed: ${reason}`),
    `correct its parameters with \`${ctx.hint('destinations', 'connections', 'update', id, '--destination', destination)} …\` (the service checks them again), or once the destination itself is fixed, check again with \`${ctx.hint('destinations', 'connections', 'recheck', id, '--destination', destination)}\``,
  );
}
