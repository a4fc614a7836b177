import { appendFileSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * What the write checks leave on the target because the contract offers no way to undo it (an
 * extract has no delete, a workspace neither, a deleted connection cannot be made again
 * without a person). A check records each such thing the moment it exists, before its own
 * assertions, so that a failing check still reports it; the global setup's teardown prints
 * one line per thing at the end of the run. Records go to the folder the answers are kept in,
 * one file per worker, as the answers do.
 */

const SUFFIX = '.left';

/** Where a thing was left: a workspace, or the agency itself (a workspace made, a recipe enabled). */
export type Place = number | 'agency';

export function recordLeftBehind(dir: string, where: Place, what: string, why: string): void {
  const place = where === 'agency' ? 'the agency' : `workspace ${where}`;
  appendFileSync(join(dir, `${process.pid}${SUFFIX}`), `${JSON.stringify(`left in ${place}: ${what} (${why})`)}\n`);
}

/** Every line recorded in `dir`, in the order each worker recorded them. */
export function leftBehindLines(dir: string): string[] {
  const lines: string[] = [];
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith(SUFFIX))
    .sort()) {
    for (const line of readFileSync(join(dir, file), 'utf8').split('\n').filter(Boolean))
      lines.push(JSON.parse(line) as string);
  }
  return lines;
}
