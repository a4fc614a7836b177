import { UsageError } from '../errors.js';
import { parsePositiveInt } from '../util/validate.js';
import type { Opts } from './app.js';

/** Option parsers shared by several command areas. */

export function limitOf(opts: Opts): number | undefined {
  return opts.limit === undefined ? undefined : parsePositiveInt(opts.limit, '--limit');
}

/** A title the service will accept: not blank, at most 255 characters. */
export function checkTitle(title: string, flag = '--title'): string {
  if (title.trim() === '') throw new UsageError(`${flag} must not be empty`);
  if (title.length > 255) throw new UsageError(`${flag} must be at most 255 characters (got ${title.length})`);
  return title;
}
