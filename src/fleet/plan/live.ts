import { createHash } from 'node:crypto';
import { idText, stringifyJson } from '../../util/json.js';

import type { Resource } from './types.js';

export const RECIPE_FIELDS = ['title', 'state', 'data_sources', 'connections', 'sync_from_date'];
export const ENDPOINT_FIELDS = ['url', 'event_types', 'status'];
export const ROLE_FIELDS = ['title', 'description', 'permissions'];

/** `{"recipe 42": digest, …}`: what a saved plan compares with the live state before it is applied. */
export function liveDigests<T extends Record<string, unknown>>(
  resource: Resource,
  items: T[],
  id: (item: T) => unknown,
  fields: string[],
): Record<string, string> {
  return Object.fromEntries(
    items.map((item) => [
      `${resource} ${idText(id(item))}`,
      createHash('sha256')
        .update(stringifyJson(Object.fromEntries(fields.map((f) => [f, item[f] ?? null]))))
        .digest('hex')
        .slice(0, 16),
    ]),
  );
}
