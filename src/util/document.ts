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
    const { parse } = await loadYaml();
    return parse(text, (_key, value) => (typeof value === 'bigint' && Number.isSafeInteger(Number(value)) ? Number(value) : value), { intAsBigInt: true });
  } catch (err) {
    throw new UsageError(`${flag}: not valid JSON or YAML: ${(err as Error).message.split('\n')[0]}`);
  }
}

type Yaml = typeof import('yaml');

/**
 * yaml, loaded on first use. Node resolves yaml's CommonJS build, whose named exports Node's
 * loader exposes but a bundle does not: esbuild turns a dynamically imported CommonJS module
 * into a chunk with only a default export (module.exports). Both shapes are accepted, so the
 * built command line and the sources under test read YAML alike.
 */
async function loadYaml(): Promise<Yaml> {
  const loaded: Yaml | { default: Yaml } = await import('yaml');
  return 'parse' in loaded && typeof loaded.parse === 'function' ? loaded : (loaded as { default: Yaml }).default;
}

/** A document from a file, or from standard input for "-". */
export async function readDocument(file: string, stdin: Readable, flag: string): Promise<unknown> {
  return parseDocument(await readInputFile(file, stdin, flag), flag);
}
