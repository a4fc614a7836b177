import { suggest } from '../../util/suggest.js';
import { type WebhookEndpoint } from '../../api/webhooks.js';
import { didYouMean } from '../../util/did-you-mean.js';
import { idText } from '../../util/json.js';
import { type WebhookEntry } from '../file.js';

import type { WorkspacePlan } from './types.js';

/** Planning a fleet file's webhook endpoints in one workspace. */

export const sameSet = (a: string[], b: string[]) => a.length === b.length && a.every((x) => b.includes(x));

/**
 * Event types the service does not list, per entry: apply would send them and the service refuse
 * the endpoint (400), so plan blocks the entry instead.
 */
function unknownEvents(entry: WebhookEntry, known: string[]): string[] {
  return entry.events.filter((n) => !known.includes(n));
}

export function planWebhooks(
  entries: WebhookEntry[],
  endpoints: WebhookEndpoint[],
  known: string[],
  prune: boolean,
  manages: boolean,
  out: WorkspacePlan,
): void {
  if (!manages) return;
  const claimed = new Set<WebhookEndpoint>();
  for (const e of entries) {
    const unknown = unknownEvents(e, known);
    if (unknown.length > 0) {
      // Still claimed, so that --prune never deletes the endpoint the entry names.
      const found = endpoints.find((x) => x.url === e.url && !claimed.has(x));
      if (found) claimed.add(found);
      out.blocked.push({
        resource: 'webhook',
        name: e.url,
        code: 'event_type_unknown',
        message: `unknown event type${unknown.length > 1 ? 's' : ''} ${unknown
          .map((n) => {
            const near = didYouMean(n, known);
            return near ? `"${n}" (${near})` : `"${n}"`;
          })
          .join(
            ', ',
          )}; \`${suggest(['webhooks', 'event-types'], { workspace: String(out.workspace_id) })}\` lists them`,
      });
      continue;
    }
    const found = endpoints.find((x) => x.url === e.url && !claimed.has(x));
    if (!found) {
      out.changes.push({ resource: 'webhook', name: e.url, action: 'create', id: null, detail: { events: e.events } });
      continue;
    }
    claimed.add(found);
    const have = found.event_types ?? [];
    if (!sameSet(have, e.events))
      out.changes.push({
        resource: 'webhook',
        name: e.url,
        action: 'update',
        id: found.id,
        detail: { events: e.events, was: have },
      });
  }
  for (const x of endpoints.filter((x) => !claimed.has(x))) {
    if (prune)
      out.changes.push({
        resource: 'webhook',
        name: x.url ?? idText(x.id),
        action: 'delete',
        id: x.id,
        detail: { events: x.event_types ?? [] },
      });
    else out.unmanaged.push({ resource: 'webhook', name: x.url ?? idText(x.id), id: x.id });
  }
}

// ---------------------------------------------------------------- the live state read

/** The fields of each live object that a plan depends on: a change to any of them changes what apply would do. */
