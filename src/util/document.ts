import type { Readable } from 'node:stream';
import { UsageError } from '../errors.js';
import { parseJson } from './json.js';
import { readInputFile } from './stdin.js';

/**
 * A JSON or YAML document given to a `--file`-style flag. Integers keep their digits: safe ones
 * are numbers, larger ones (recipe ids) stay exact, as LosslessNumber from JSON and bigint
 * from YAML.
 */
export async function parseDocument(text: string, flag: string): Promise<unknown> {
  try {
    if (/^\s*[[{]/.test(text)) return parseJson(text);
    const { parse } = await import('yaml');
    return parse(text, (_key, value) => (typeof value === 'bigint' && Number.isSafeInteger(Number(value)) ? Number(value) : value), { intAsBigInt: true });
  } catch (err) {
    throw new UsageError(`${flag}: not valid JSON or YAML: ${(err as Error).message.split('\n')[0]}`);
  }
}

/** A document from a file, or from standard input for "-". */
export async function readDocument(file: string, stdin: Readable, flag: string): Promise<unknown> {
  return parseDocument(await readInputFile(file, stdin, flag), flag);
}
