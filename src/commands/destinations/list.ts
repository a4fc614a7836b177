import { listDestinations, type Destination } from '../../api/destinations.js';
import type { Context } from '../../context.js';
import { limitOf } from '../shared/options.js';
import type { ListOptions } from './command.js';

export async function runList(opts: ListOptions, ctx: Context): Promise<void> {
  const limit = limitOf(opts.limit);
  const ws = ctx.requireWorkspace();
  const api = await ctx.api();
  await ctx.output.list(
    listDestinations(api, ws, { limit }),
    [
      { header: 'NAME', value: (d: Destination) => d.name },
      { header: 'TITLE', value: (d: Destination) => d.title },
    ],
    { empty: 'No destinations.' },
  );
}
