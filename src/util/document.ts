import type { Readable } from 'node:stream';
import { UsageError } from '../errors.js';
import { fieldPath } from './field-path.js';
import { duplicateKey, parseJson } from './json.js';
import { readInputFile } from './stdin.js';

/**
 * A JSON or YAML document given to a `--file`-style flag. Integers keep their digits: safe ones
 * are numbers, larger ones (recipe ids) stay exact, as LosslessNumber from JSON and bigint
 * from YAML.
 */
export async function parseDocument(text: string, flag: string): Promise<unknown> {
  try {
    if (/^\s*[[{]/.test(text)) {
      // JSON keeps the last of a key given twice; YAML refuses it, and so does JSON here.
      const twice = duplicateKey(text);
      if (twice)
        throw new UsageError(
          `${flag}: the key "${twice.key}" is given twice in ${fieldPath(twice.path) || 'the document'} (line ${twice.line})`,
        );
      return parseJson(text);
    }
    const { parse } = await import('yaml');
    return parse(
      text,
      (_key, value) => (typeof value === 'bigint' && Number.isSafeInteger(Number(value)) ? Number(value) : value),
      { intAsBigInt: true },
    );
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(`${flag}: not valid JSON or YAML: ${(err as Error).message.split('\n')[0]}`);
  }
}

/** A document from a file, or from standard input for "-". */
export async function readDocument(file: string, stdin: Readable, flag: string): Promise<unknown> {
  return parseDocument(await readInputFile(file, stdin, flag), flag);
}

/** The schema a document is checked against: a zod schema, loaded only when a document is given. */
interface Schema<T> {
  safeParse(
    doc: unknown,
  ):
    | { success: true; data: T }
    | { success: false; error: { issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }> } };
}

/** `connections[0].accounts[1].id: must be a positive integer id`: the contract's path style. */
export function issuePaths(issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>): string {
  return issues.map((i) => `  ${fieldPath(i.path) || '(document)'}: ${i.message}`).join('\n');
}

/**
 * The one way a `--file` document is read and checked: JSON or YAML from a file or stdin ("-"),
 * then the schema (zod), whose module is passed as a loader so that commands pay for zod only
 * when a document is given. Bad documents are usage errors naming the flag and each field:
 * `--file is not a valid role:\n  permissions[0]: must be a string`.
 */
export async function readValidDocument<T>(
  file: string,
  stdin: Readable,
  flag: string,
  what: string,
  schema: () => Promise<Schema<T>>,
): Promise<T> {
  const doc = await readDocument(file, stdin, flag);
  return checkDocument(doc, flag, what, await schema());
}

/** `readValidDocument` for a document already parsed. */
export function checkDocument<T>(doc: unknown, flag: string, what: string, schema: Schema<T>): T {
  const result = schema.safeParse(doc);
  if (!result.success) throw new UsageError(`${flag} is not a valid ${what}:\n${issuePaths(result.error.issues)}`);
  return result.data;
}
