import { SILENT_EVENT_TYPES, listWebhookEventTypes } from '../../api/webhooks.js';
import { limitOf } from '../shared/options.js';
import type { Context } from '../../context.js';
import type { EventTypesOptions } from './command.js';

export async function runEventTypes(opts: EventTypesOptions, ctx: Context): Promise<void> {
  const ws = ctx.requireWorkspace();
  const limit = limitOf(opts.limit);
  const api = await ctx.api();
  await ctx.output.list(
    listWebhookEventTypes(api, ws, { limit }),
    [
      // The values `--events` takes: never cut; the note gives up its width first.
      { header: 'EVENT', keep: true, value: (t) => t.event_name },
      {
        header: 'NOTE',
        value: (t) => (SILENT_EVENT_TYPES.has(t.event_name) ? 'silent: no events in production sample' : ''),
      },
    ],
    { empty: 'No event types.' },
  );
}
