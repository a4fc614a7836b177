import { accessSync, constants, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { UsageError } from '../errors.js';

/**
 * A file a command is to write (`plan --out`, `export --output`), checked before anything is
 * read from the service: a run of many reads does not end in a raw ENOENT. The folder must
 * exist and take a new file; a file already there must be a file this user may replace.
 */
export function checkOutputFile(path: string, flag: string): void {
  const folder = dirname(resolve(path));
  let stat;
  try {
    stat = statSync(folder);
  } catch {
    throw new UsageError(`${flag} ${path}: the folder ${folder} does not exist; create it, or name a file in another`);
  }
  if (!stat.isDirectory()) throw new UsageError(`${flag} ${path}: ${folder} is not a folder`);
  try {
    accessSync(folder, constants.W_OK);
  } catch {
    throw new UsageError(`${flag} ${path}: the folder ${folder} cannot be written to; name a file in another`);
  }
  let existing;
  try {
    existing = statSync(path);
  } catch {
    return;
  }
  if (existing.isDirectory()) throw new UsageError(`${flag} ${path} is a folder; name a file`);
  try {
    accessSync(path, constants.W_OK);
  } catch {
    throw new UsageError(`${flag} ${path} cannot be written to; name another file`);
  }
}
