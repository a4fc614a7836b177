import type { DestinationConnection } from '../../../api/destinations.js';
import type { Context } from '../../../context.js';
import { isSecretName } from './params.js';

const MASK = '********';

/** Key/value lines for a person, with any secret masked (the service should not return them, but might). */
export function connectionRows(destination: string, c: DestinationConnection): Array<[string, unknown]> {
  const params = Object.entries(c.connection_params ?? {}).map(
    ([k, v]) => [`connection_params.${k}`, isSecretName(destination, k) ? MASK : v] as [string, unknown],
  );
  return [
    ['id', c.id],
    ['title', c.title],
    ['destination', c.destination_name ?? destination],
    ['status', c.status],
    ['error', c.error_text ?? ''],
    ['last checked', c.last_checked_at],
    ...params,
  ];
}

/** --json prints what the service sent. */
export async function showConnection(ctx: Context, destination: string, c: DestinationConnection): Promise<void> {
  if (ctx.output.machine) return ctx.output.json(c);
  await ctx.output.object(c, connectionRows(destination, c));
}
