import { UsageError } from '../../errors.js';
import { parsePositiveInt } from '../../util/validate.js';
import { runWorkspace, suggest } from '../../util/suggest.js';

/** Option parsers shared by several command areas. */

/** `--limit <n>`: a positive integer, or no limit. */
export function limitOf(value: string | undefined): number | undefined {
  return value === undefined ? undefined : parsePositiveInt(value, '--limit');
}

/** A title the service will accept: not blank, at most 255 characters. */
export function checkTitle(title: string, flag = '--title'): string {
  if (title.trim() === '') throw new UsageError(`${flag} must not be empty`);
  if (title.length > 255) throw new UsageError(`${flag} must be at most 255 characters (got ${title.length})`);
  return title;
}

/** Where each kind of name can be looked up, for the error message. */
const NAME_LISTS: Record<string, string[]> = {
  '--data-source': ['datasources', 'list'],
  '--destination': ['destinations', 'list'],
};

/** A data source or destination name as paths take it (`google_ads`, `s3`). */
export function parseName(value: unknown, flag: string): string {
  const v = String(value ?? '').trim();
  if (!/^[a-z0-9][a-z0-9_-]*$/i.test(v)) {
    const list = NAME_LISTS[flag];
    const hint = list && suggest(list, { workspace: runWorkspace() });
    throw new UsageError(
      `${flag} must be a name such as google_ads or s3${hint ? ` (see \`${hint}\`)` : ''}, got "${String(value ?? '')}"`,
    );
  }
  return v;
}
