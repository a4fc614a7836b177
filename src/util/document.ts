import type { Readable } from 'node:stream';
import { UsageError } from '../errors.js';
import { fieldPath } from './field-path.js';
import { closest } from './did-you-mean.js';
import { duplicateKey, parseJson } from './json.js';
import { readInputFile } from './stdin.js';

/** A document's text and the name to show for it (the file, or standard input). */
export interface Source {
  text: string;
  name: string;
}

/** One problem of a document, where it is and what would be right. */
export interface DocumentProblem {
  /** the field path, `recipes[0].sources[1].accounts`; '' for the document as a whole */
  path: string;
  /** what is wrong, with what was expected */
  message: string;
  /** 1-based line and column in the file, when known */
  line: number | null;
  column: number | null;
  /** the nearest valid key or value */
  suggestion: string | null;
}

/**
 * A document that cannot be used (exit 2, nothing sent): every problem at once, each with its
 * file, line and column, field path, what was expected and the nearest valid key. `--json`
 * errors carry them in `details: {file, problems}`.
 */
export class DocumentError extends UsageError {
  readonly details: { file: string | null; problems: DocumentProblem[] };
  constructor(heading: string, file: string | null, given: DocumentProblem[]) {
    // In the order of the file; problems with no position last, as found.
    const problems = given
      .map((p, i) => ({ p, i }))
      .sort((a, b) => order(a.p) - order(b.p) || a.i - b.i)
      .map(({ p }) => p);
    const at = (p: DocumentProblem) =>
      p.line === null ? '' : `${file ?? 'line'}${file === null ? ' ' : ':'}${p.line}:${p.column ?? 1}: `;
    const lines = problems.map(
      (p) =>
        `  ${at(p)}${p.path ? `${p.path}: ` : ''}${p.message}${p.suggestion === null ? '' : `; did you mean "${p.suggestion}"?`}`,
    );
    super(`${heading}:\n${lines.join('\n')}`);
    this.name = 'DocumentError';
    this.details = { file, problems };
  }
}

const order = (p: DocumentProblem): number =>
  p.line === null ? Number.MAX_SAFE_INTEGER : p.line * 100_000 + (p.column ?? 0);

/**
 * A JSON or YAML document given to a `--file`-style flag. Integers keep their digits: safe ones
 * are numbers, larger ones (recipe ids) stay exact, as LosslessNumber from JSON and bigint
 * from YAML.
 */
export async function parseDocument(text: string, flag: string, name: string | null = null): Promise<unknown> {
  const syntax = (message: string, at: { line: number; column: number } | undefined) =>
    new DocumentError(`${flag}${name ? ` ${name}` : ''} is not valid JSON or YAML`, name, [
      { path: '', message, line: at?.line ?? null, column: at?.column ?? null, suggestion: null },
    ]);
  if (/^\s*[[{]/.test(text)) {
    // JSON keeps the last of a key given twice; YAML refuses it, and so does JSON here.
    const twice = duplicateKey(text);
    if (twice)
      throw new DocumentError(`${flag}${name ? ` ${name}` : ''} is not a valid document`, name, [
        {
          path: fieldPath(twice.path),
          message: `the key "${twice.key}" is given twice`,
          line: twice.line,
          column: null,
          suggestion: null,
        },
      ]);
    try {
      return parseJson(text);
    } catch (err) {
      const message = (err as Error).message.split('\n')[0]!;
      // V8 and the lossless parser say where: "at position 12", "(char 12)"; else the end.
      const offset = /position (\d+)|\(char (\d+)\)/.exec(message);
      const index = offset ? Number(offset[1] ?? offset[2]) : text.length;
      throw syntax(message.replace(/ in JSON at position \d+.*$/, ''), positionOf(text, index));
    }
  }
  const yaml = await import('yaml');
  try {
    return yaml.parse(
      text,
      (_key, value) => (typeof value === 'bigint' && Number.isSafeInteger(Number(value)) ? Number(value) : value),
      { intAsBigInt: true },
    );
  } catch (err) {
    const pos = (err as { linePos?: Array<{ line: number; col: number }> }).linePos?.[0];
    // The library's message ends with the offending line and a caret: the first line says it.
    const message = (err as Error).message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
    throw syntax(message, pos ? { line: pos.line, column: pos.col } : undefined);
  }
}

/** 1-based line and column of `index` in `text`. */
function positionOf(text: string, index: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(index, text.length)));
  const lastBreak = before.lastIndexOf('\n');
  return { line: before.split('\n').length, column: index - lastBreak };
}

/** A document's text from a file, or from standard input for "-". */
export async function readSource(file: string, stdin: Readable, flag: string): Promise<Source> {
  return { text: await readInputFile(file, stdin, flag), name: file === '-' ? 'standard input' : file };
}

/** An issue as the schema (zod) reports it. */
interface Issue {
  code?: string;
  path: ReadonlyArray<PropertyKey>;
  message: string;
  expected?: string;
  keys?: string[];
  origin?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
}

/** The schema a document is checked against: a zod schema, loaded only when a document is given. */
interface Schema<T> {
  safeParse(doc: unknown): { success: true; data: T } | { success: false; error: { issues: ReadonlyArray<Issue> } };
}

/**
 * The one way a `--file` document is read and checked: JSON or YAML from a file or stdin ("-"),
 * then the schema (zod), whose module is passed as a loader so that commands pay for zod only
 * when a document is given. Bad documents are DocumentErrors naming the flag, the file and
 * each problem with its line and column:
 * `--file role.yaml is not a valid role:\n  role.yaml:3:5: permissions[0]: expected a string, got a number`.
 */
export async function readValidDocument<T>(
  file: string,
  stdin: Readable,
  flag: string,
  what: string,
  schema: () => Promise<Schema<T>>,
): Promise<T> {
  const source = await readSource(file, stdin, flag);
  const doc = await parseDocument(source.text, flag, source.name);
  return checkDocument(doc, flag, what, await schema(), source);
}

/**
 * `readValidDocument` for a document already parsed; `source` (its text) lets each problem be
 * placed by line and column.
 */
export async function checkDocument<T>(
  doc: unknown,
  flag: string,
  what: string,
  schema: Schema<T>,
  source?: Source,
): Promise<T> {
  const result = schema.safeParse(doc);
  if (result.success) return result.data;
  const locate = source ? await locator(source.text) : undefined;
  throw new DocumentError(
    `${flag}${source ? ` ${source.name}` : ''} is not a valid ${what}`,
    source?.name ?? null,
    problemsOf(result.error.issues, doc, schema, locate),
  );
}

/** Problems found by other checks than the schema's, in the same form (paths as arrays). */
export async function documentError(
  heading: string,
  problems: Array<{ path: ReadonlyArray<PropertyKey>; message: string; suggestion?: string | null }>,
  source?: Source,
): Promise<DocumentError> {
  const locate = source ? await locator(source.text) : undefined;
  return new DocumentError(
    heading,
    source?.name ?? null,
    problems.map((p) => ({
      path: fieldPath(p.path),
      message: p.message,
      ...(locate?.(p.path) ?? { line: null, column: null }),
      suggestion: p.suggestion ?? null,
    })),
  );
}

type Locate = (path: ReadonlyArray<PropertyKey>) => { line: number; column: number } | undefined;

function problemsOf(issues: ReadonlyArray<Issue>, doc: unknown, schema: unknown, locate?: Locate): DocumentProblem[] {
  const where = (path: ReadonlyArray<PropertyKey>) => locate?.(path) ?? { line: null, column: null };
  const out: DocumentProblem[] = [];
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys' && issue.keys) {
      const known = keysAt(schema, issue.path);
      for (const key of issue.keys) {
        const path = [...issue.path, key];
        out.push({
          path: fieldPath(path),
          message: `unknown key${known.length > 0 ? ` (known: ${known.join(', ')})` : ''}`,
          ...where(path),
          suggestion: closest(key, known, 1)[0] ?? null,
        });
      }
      continue;
    }
    out.push({
      path: fieldPath(issue.path),
      message: describeIssue(issue, doc),
      ...where(issue.path),
      suggestion: null,
    });
  }
  return out;
}

const KIND: Record<string, string> = {
  array: 'a list',
  object: 'a mapping of keys',
  record: 'a mapping of keys',
  string: 'a string',
  number: 'a number',
  boolean: 'true or false',
  int: 'an integer',
  bigint: 'an integer',
};

function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return v.constructor?.name === 'LosslessNumber' ? 'a number' : 'a mapping of keys';
  return KIND[typeof v] ?? typeof v;
}

/** The schema's words, made to say what was expected and what was found. */
function describeIssue(issue: Issue, doc: unknown): string {
  const value = valueAt(doc, issue.path);
  if (issue.code === 'invalid_type' && issue.expected && issue.message.startsWith('Invalid input')) {
    const expected = KIND[issue.expected] ?? issue.expected;
    return value === undefined ? `missing: expected ${expected}` : `expected ${expected}, got ${kindOf(value)}`;
  }
  if ((issue.code === 'too_small' || issue.code === 'too_big') && issue.message.startsWith('Too ')) {
    const bound = issue.code === 'too_small' ? issue.minimum : issue.maximum;
    const least = issue.code === 'too_small' ? 'at least' : 'at most';
    if (issue.origin === 'number' || issue.origin === 'int' || issue.origin === 'bigint')
      return `must be ${least} ${String(bound)}, got ${String(value)}`;
    if (issue.origin === 'string')
      return issue.code === 'too_small' && Number(bound) === 1
        ? 'must not be empty'
        : `must be ${least} ${String(bound)} characters`;
    if (issue.origin === 'array') return `needs ${least} ${String(bound)} item${Number(bound) === 1 ? '' : 's'}`;
  }
  if (issue.message === 'Invalid input' || issue.message.startsWith('Invalid input:'))
    return value === undefined ? 'missing' : `not valid here (got ${kindOf(value)})`;
  // A schema's own "expected …" says what was wanted; say also what was found.
  if (issue.message.startsWith('expected ') && !issue.message.includes(', got '))
    return value === undefined ? `missing: ${issue.message}` : `${issue.message}, got ${kindOf(value)}`;
  return issue.message;
}

function valueAt(doc: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  let v: unknown = doc;
  for (const k of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[k];
  }
  return v;
}

/**
 * The keys the schema allows for the object at `path` (for "did you mean"): walks zod's
 * definitions through objects, lists, optional and transformed values and unions.
 */
function keysAt(schema: unknown, path: ReadonlyArray<PropertyKey>): string[] {
  type Def = {
    type?: string;
    shape?: Record<string, unknown>;
    element?: unknown;
    innerType?: unknown;
    in?: unknown;
    options?: unknown[];
  };
  const defOf = (s: unknown): Def | undefined => (s as { _zod?: { def?: Def } } | undefined)?._zod?.def;
  const objects = (s: unknown, depth = 0): Array<Record<string, unknown>> => {
    const def = defOf(s);
    if (!def || depth > 20) return [];
    if (def.type === 'object' && def.shape) return [def.shape];
    if (def.innerType) return objects(def.innerType, depth + 1);
    if (def.in) return objects(def.in, depth + 1);
    if (def.options) return def.options.flatMap((o) => objects(o, depth + 1));
    return [];
  };
  const elements = (s: unknown, depth = 0): unknown[] => {
    const def = defOf(s);
    if (!def || depth > 20) return [];
    if (def.type === 'array') return [def.element];
    if (def.innerType) return elements(def.innerType, depth + 1);
    if (def.in) return elements(def.in, depth + 1);
    if (def.options) return def.options.flatMap((o) => elements(o, depth + 1));
    return [];
  };
  let current: unknown[] = [schema];
  for (const k of path) {
    current =
      typeof k === 'number'
        ? current.flatMap((s) => elements(s))
        : current.flatMap((s) => objects(s).flatMap((shape) => (k in shape ? [shape[k as string]] : [])));
  }
  return [...new Set(current.flatMap((s) => objects(s).flatMap((shape) => Object.keys(shape))))];
}

/**
 * Finds the line and column of a field path in a JSON or YAML text, through the YAML library's
 * source ranges (JSON is YAML too). A missing field is placed at the object that lacks it.
 */
async function locator(text: string): Promise<Locate> {
  let doc: YamlDocument | undefined;
  let counter: { linePos(offset: number): { line: number; col: number } } | undefined;
  try {
    const yaml = await import('yaml');
    const lc = new yaml.LineCounter();
    doc = yaml.parseDocument(text, { lineCounter: lc, uniqueKeys: false }) as unknown as YamlDocument;
    counter = lc;
  } catch {
    doc = undefined;
  }
  return (path) => {
    if (!doc || !counter) return undefined;
    let node: YamlNode | undefined = doc.contents ?? undefined;
    let at = node?.range?.[0];
    for (const k of path) {
      if (!node) break;
      if (Array.isArray(node.items)) {
        const item: YamlItem | undefined =
          typeof k === 'number'
            ? (node.items[k] as YamlItem | undefined)
            : (node.items as YamlItem[]).find(
                (p) => p && typeof p === 'object' && 'key' in p && keyText(p.key) === String(k),
              );
        if (item === undefined) break;
        if (typeof k === 'number') {
          node = item as YamlNode;
          at = node.range?.[0] ?? at;
        } else {
          at = (item.key as YamlNode | undefined)?.range?.[0] ?? at;
          node = (item.value as YamlNode | undefined) ?? undefined;
        }
      } else break;
    }
    if (at === undefined) return undefined;
    const { line, col } = counter.linePos(at);
    return { line, column: col };
  };
}

interface YamlNode {
  range?: [number, number, number];
  items?: unknown[];
  value?: unknown;
}
interface YamlItem extends YamlNode {
  key?: unknown;
}
interface YamlDocument {
  contents: YamlNode | null;
}

function keyText(key: unknown): string {
  const v = (key as { value?: unknown } | null)?.value ?? key;
  return String(v);
}
