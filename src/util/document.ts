import type { Readable } from 'node:stream';
import type { ScalarTag, Tags } from 'yaml';
import { UsageError } from '../errors.js';
import { fieldPath } from './field-path.js';
import { closest } from './did-you-mean.js';
import {
  JsonDuplicateKeyError,
  JsonNumberRangeError,
  JsonTooDeepError,
  MAX_JSON_DEPTH,
  NUMBER_RANGE,
  parseJson,
  scanJson,
} from './json.js';
import { readInputFile, readInputFileSync } from './stdin.js';

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

/** The problems a document error lists; the count of the others follows them. */
export const MAX_LISTED_PROBLEMS = 50;

/**
 * A problem as found: its suggestion may be worked out only if it is listed (a document may
 * have a great many problems, of which the first `MAX_LISTED_PROBLEMS` are shown).
 */
export type FoundProblem = Omit<DocumentProblem, 'suggestion'> & { suggestion: string | null | (() => string | null) };

/**
 * A document that cannot be used (exit 2, nothing sent): every problem at once, each with its
 * file, line and column, field path, what was expected and the nearest valid key; past the
 * first `MAX_LISTED_PROBLEMS` (in the order of the file), the count of the others. `--json`
 * errors carry the same in `details: {file, problems, more}`: the problems listed, and how many
 * more there are (0 when every one is listed).
 */
export class DocumentError extends UsageError {
  readonly details: { file: string | null; problems: DocumentProblem[]; more: number };
  constructor(heading: string, file: string | null, given: FoundProblem[]) {
    // In the order of the file; problems with no position last, as found. A problem found
    // twice (two checks of one value saying the same) is listed once.
    const sorted = [...given].sort(compare); // stable: problems at one place stay as found
    const problems: FoundProblem[] = [];
    let same = new Set<string>();
    for (let n = 0; n < sorted.length; n++) {
      const p = sorted[n]!;
      const before = sorted[n - 1];
      const next = sorted[n + 1];
      const alone = (q: FoundProblem | undefined) => !q || q.line !== p.line || q.column !== p.column;
      // Only problems at the same place can be the same one.
      if (alone(before)) same = new Set();
      if (!(alone(before) && alone(next))) {
        const key = `${p.path}\0${p.message}`;
        if (same.has(key)) continue;
        same.add(key);
      }
      problems.push(p);
    }
    const listed: DocumentProblem[] = problems.slice(0, MAX_LISTED_PROBLEMS).map((p) => ({
      ...p,
      suggestion: typeof p.suggestion === 'function' ? p.suggestion() : p.suggestion,
    }));
    const more = problems.length - listed.length;
    const at = (p: DocumentProblem) =>
      p.line === null ? '' : `${file ?? 'line'}${file === null ? ' ' : ':'}${p.line}:${p.column ?? 1}: `;
    const lines = listed.map(
      (p) =>
        `  ${at(p)}${p.path ? `${p.path}: ` : ''}${p.message}${p.suggestion === null ? '' : `; did you mean "${p.suggestion}"?`}`,
    );
    if (more > 0) lines.push(`  and ${more.toLocaleString('en-US')} more problem${more === 1 ? '' : 's'}`);
    super(`${heading}:\n${lines.join('\n')}`);
    this.name = 'DocumentError';
    this.details = { file, problems: listed, more };
  }
}

/** By line, then column; problems with no position after every other. */
function compare(a: FoundProblem, b: FoundProblem): number {
  if (a.line === null || b.line === null) return a.line === b.line ? 0 : a.line === null ? 1 : -1;
  return a.line - b.line || (a.column ?? 0) - (b.column ?? 0);
}

/**
 * A JSON or YAML document given to a `--file`-style flag. Integers keep their digits: safe ones
 * are numbers, larger ones (recipe ids) stay exact, as LosslessNumber from JSON and bigint
 * from YAML. JSON is read by `parseJsonDocument`, with its checks; YAML with the same ones (a
 * key given twice, nesting past MAX_JSON_DEPTH, a number out of a double's range).
 */
export async function parseDocument(text: string, flag: string, name: string | null = null): Promise<unknown> {
  const label = `${flag}${name ? ` ${name}` : ''}`;
  if (/^\s*[[{]/.test(text)) return parseJsonDocument(text, flag, name, 'JSON or YAML');
  const syntax = (message: string, at: { line: number; column: number } | undefined) =>
    new DocumentError(`${label} is not valid JSON or YAML`, name, [
      { path: '', message, line: at?.line ?? null, column: at?.column ?? null, suggestion: null },
    ]);
  const yaml = await import('yaml');
  const invalid = `${label} is not a valid document`;
  const lineCounter = new yaml.LineCounter();
  let doc: ReturnType<typeof yaml.parseDocument>;
  try {
    // Keys given twice are found below, in one pass: the library's own check compares each key
    // with every key before it in its mapping. Its warnings (an unknown tag such as
    // !!js/function, whose value it would read as plain text) are problems of the document
    // like its errors, reported here; its own logging, which writes them to the process's
    // stderr, is off.
    doc = yaml.parseDocument(text, {
      intAsBigInt: true,
      customTags: exactIntegers,
      uniqueKeys: false,
      logLevel: 'error',
      lineCounter,
    });
  } catch (err) {
    throw syntax((err as Error).message.split('\n')[0]!, undefined);
  }
  const [error] = doc.errors;
  if (error) {
    const pos = error.linePos?.[0];
    const at = pos ? { line: pos.line, column: pos.col } : undefined;
    // The library's parser recurses: a document nested thousands deep exhausts its stack, which
    // it reports where that happened. It is the same problem as nesting past the bound below.
    if (error.code === 'RESOURCE_EXHAUSTION' && /call stack/i.test(error.message))
      throw new DocumentError(invalid, name, [
        { path: '', message: TOO_DEEP, line: at?.line ?? null, column: at?.column ?? null, suggestion: null },
      ]);
    // The library's message ends with the offending line and a caret: the first line says it.
    const message = error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
    throw syntax(message, at);
  }
  const at = (offset: number) => {
    const { line, col } = lineCounter.linePos(offset);
    return { line, column: col };
  };
  const problems: DocumentProblem[] = doc.warnings.map((w) => ({
    path: '',
    message: warningText(w, text),
    ...at(w.pos[0]),
    suggestion: null,
  }));
  for (const found of yamlProblems(yaml, doc.contents))
    problems.push({ path: fieldPath(found.path), message: found.message, ...at(found.offset), suggestion: null });
  if (problems.length > 0) throw new DocumentError(invalid, name, problems);
  located = { text, doc: doc as unknown as YamlDocument, lineCounter };
  try {
    return doc.toJS();
  } catch (err) {
    // An alias that expands too far.
    throw syntax((err as Error).message.split('\n')[0]!, undefined);
  }
}

/** A document nested past the bound, in the words of every file's check. */
const TOO_DEEP = `nested more than ${MAX_JSON_DEPTH} levels deep, more than edp reads`;

/**
 * JSON text as every file edp reads is read (a fleet file, a `--file` document, a saved plan, the
 * secrets file, `edp api --input`, the sandbox's `--state`): a key given twice in one object is
 * refused (a parser would keep the last silently), so is nesting past MAX_JSON_DEPTH (which
 * would overflow the stack of what reads the value) and a number a double cannot hold (`1e400`,
 * read as Infinity), each as a DocumentError naming the flag, the file, the line and column and
 * the field path; malformed text too (`is not valid ${syntax}`). Integers keep their digits
 * (parseJson).
 */
export function parseJsonDocument(text: string, flag: string, name: string | null = null, syntax = 'JSON'): unknown {
  const label = `${flag}${name ? ` ${name}` : ''}`;
  const problem = (heading: string, path: ReadonlyArray<PropertyKey>, message: string, offset: number) => {
    const { line, column } = positionOf(text, offset);
    return new DocumentError(heading, name, [{ path: fieldPath(path), message, line, column, suggestion: null }]);
  };
  try {
    return parseJson(text, { uniqueKeys: true, finiteNumbers: true });
  } catch (err) {
    const invalid = `${label} is not a valid document`;
    if (err instanceof JsonDuplicateKeyError)
      throw problem(invalid, err.path, `the key "${err.key}" is given twice`, err.at ?? text.length);
    if (err instanceof JsonTooDeepError) throw problem(invalid, err.path, TOO_DEEP, err.at ?? text.length);
    if (err instanceof JsonNumberRangeError) throw problem(invalid, err.path, err.message, err.at);
    const message = (err as Error).message.split('\n')[0]!;
    // V8 and the lossless parser say where: "at position 12", "(char 12)"; else the end.
    const offset = /position (\d+)|\(char (\d+)\)/.exec(message);
    const index = offset ? Number(offset[1] ?? offset[2]) : text.length;
    throw problem(`${label} is not valid ${syntax}`, [], message.replace(/ in JSON at position \d+.*$/, ''), index);
  }
}

/**
 * A JSON file read at once (`readInputFileSync`) and checked as every file is
 * (`parseJsonDocument`), with its text and name for placing later problems. Usage errors
 * naming `flag` and the file.
 */
export function readJsonFile(
  path: string,
  flag: string,
  opts: { maxBytes?: false } = {},
): { source: Source; doc: unknown } {
  const source: Source = { text: readInputFileSync(path, flag, opts), name: path };
  return { source, doc: parseJsonDocument(source.text, flag, path) };
}

/**
 * The YAML schema's integer tags, each reading a safe integer as a number and a larger one as
 * a bigint (the parse reads every integer as a bigint): decided as each value is read, rather
 * than by a pass over the whole document afterwards.
 */
function exactIntegers(tags: Tags): Tags {
  return tags.map((t) => {
    if (typeof t !== 'object' || t.tag !== 'tag:yaml.org,2002:int' || !('resolve' in t) || !t.resolve) return t;
    const resolve = t.resolve as (this: void, ...args: unknown[]) => unknown;
    return {
      ...t,
      resolve: (...args: unknown[]) => {
        const v = resolve(...args);
        return typeof v === 'bigint' && Number.isSafeInteger(Number(v)) ? Number(v) : v;
      },
    } as ScalarTag;
  });
}

/**
 * What a YAML document has that every file is refused for: keys given twice in a mapping (scalar
 * keys of equal value, as the library's own check compares them), collections nested past
 * MAX_JSON_DEPTH and numbers out of a double's range (`1e400`, `.inf`, `.nan`), each with its
 * path and offset. One pass, with a stack rather than recursion: any size and depth of document.
 */
function yamlProblems(
  yaml: typeof import('yaml'),
  root: unknown,
): Array<{ path: Array<string | number>; message: string; offset: number }> {
  interface Frame {
    node: unknown;
    parent: Frame | undefined;
    /** the item's index, or the key node of the pair whose value this is */
    step: unknown;
    /** how many collections hold it */
    depth: number;
  }
  const pathOf = (frame: Frame | undefined): Array<string | number> => {
    const path: Array<string | number> = [];
    for (let f = frame; f?.parent; f = f.parent) path.push(typeof f.step === 'number' ? f.step : keyText(f.step));
    return path.reverse();
  };
  const found: Array<{ path: Array<string | number>; message: string; offset: number }> = [];
  const stack: Frame[] = [{ node: root, parent: undefined, step: undefined, depth: 0 }];
  const number = (node: unknown, frame: Frame) => {
    if (!yaml.isScalar(node) || typeof node.value !== 'number' || Number.isFinite(node.value)) return;
    const written = node.source ?? String(node.value);
    const message = Number.isNaN(node.value)
      ? `${written} (not a number) is not a value edp reads`
      : `the number ${written} ${NUMBER_RANGE}`;
    found.push({ path: pathOf(frame), message, offset: node.range?.[0] ?? 0 });
  };
  // The top value is at depth 0, as in JSON (scanJson): the container at depth MAX_JSON_DEPTH is one too deep.
  const visit = (node: unknown, parent: Frame, step: unknown) => {
    if (yaml.isMap(node) || yaml.isSeq(node)) stack.push({ node, parent, step, depth: parent.depth + 1 });
    else number(node, { node, parent, step, depth: parent.depth + 1 });
  };
  for (let frame = stack.pop(); frame; frame = stack.pop()) {
    const node = frame.node;
    if (frame.depth >= MAX_JSON_DEPTH) {
      found.push({ path: pathOf(frame), message: TOO_DEEP, offset: (node as { range?: number[] }).range?.[0] ?? 0 });
      continue;
    }
    if (yaml.isMap(node)) {
      const seen = new Set<unknown>();
      for (const pair of node.items) {
        const key = pair.key;
        if (yaml.isScalar(key)) {
          if (seen.has(key.value))
            found.push({
              path: pathOf(frame),
              message: `the key "${keyText(key)}" is given twice`,
              offset: key.range?.[0] ?? 0,
            });
          seen.add(key.value);
        }
        visit(pair.value, frame, key);
      }
    } else if (yaml.isSeq(node)) {
      node.items.forEach((item, i) => visit(item, frame, i));
    } else number(node, frame);
  }
  return found;
}

/** What a warning of the YAML library says, in the words of the other problems. */
function warningText(w: { code: string; message: string; pos: [number, number] }, text: string): string {
  if (w.code === 'TAG_RESOLVE_FAILED') {
    const tag = /^!\S*/.exec(text.slice(w.pos[0], w.pos[1]))?.[0];
    return `unknown tag${tag ? ` ${tag}` : ''}: only plain YAML values are read (strings, numbers, true/false, null, lists, mappings)`;
  }
  return w.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
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
  const found = problemsOf(result.error.issues, doc, schema);
  throw new DocumentError(
    `${flag}${source ? ` ${source.name}` : ''} is not a valid ${what}`,
    source?.name ?? null,
    await placed(found, source),
  );
}

/** Problems found by other checks than the schema's, in the same form (paths as arrays). */
export async function documentError(
  heading: string,
  problems: Array<{ path: ReadonlyArray<PropertyKey>; message: string; suggestion?: string | null }>,
  source?: Source,
): Promise<DocumentError> {
  return new DocumentError(
    heading,
    source?.name ?? null,
    await placed(
      problems.map((p) => ({ at: p.path, message: p.message, suggestion: p.suggestion ?? null })),
      source,
    ),
  );
}

/** A problem before it is placed in the text: its path as an array. */
interface UnplacedProblem {
  at: ReadonlyArray<PropertyKey>;
  message: string;
  suggestion: FoundProblem['suggestion'];
}

/** The problems with their field paths as text and, when the text is known, their lines and columns. */
async function placed(problems: UnplacedProblem[], source?: Source): Promise<FoundProblem[]> {
  const positions = source
    ? await locateAll(
        source.text,
        problems.map((p) => p.at),
      )
    : [];
  return problems.map((p, i) => ({
    path: fieldPath(p.at),
    message: p.message,
    line: positions[i]?.line ?? null,
    column: positions[i]?.column ?? null,
    suggestion: p.suggestion,
  }));
}

function problemsOf(issues: ReadonlyArray<Issue>, doc: unknown, schema: unknown): UnplacedProblem[] {
  const out: UnplacedProblem[] = [];
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys' && issue.keys) {
      const known = keysAt(schema, issue.path);
      const message = `unknown key${known.length > 0 ? ` (known: ${known.join(', ')})` : ''}`;
      for (const key of issue.keys)
        out.push({ at: [...issue.path, key], message, suggestion: () => closest(key, known, 1)[0] ?? null });
      continue;
    }
    out.push({ at: issue.path, message: describeIssue(issue, doc), suggestion: null });
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

/** The YAML document `parseDocument` last read, kept so that placing its problems does not read it again. */
let located: { text: string; doc: YamlDocument; lineCounter: LineCounter } | undefined;

interface LineCounter {
  linePos(offset: number): { line: number; col: number };
}

type Position = { line: number; column: number } | undefined;

/**
 * The line and column of each field path in a JSON or YAML text; a missing field is placed at
 * the object that lacks it. All at once, in time proportional to the text and the paths, so
 * that a document with any number of problems is placed as fast as it is read.
 */
async function locateAll(text: string, paths: ReadonlyArray<ReadonlyArray<PropertyKey>>): Promise<Position[]> {
  if (paths.length === 0) return [];
  if (/^\s*[[{]/.test(text)) {
    const lines = lineStarts(text);
    return jsonOffsets(text, paths).map((offset) => (offset === undefined ? undefined : positionAt(lines, offset)));
  }
  let doc: YamlDocument;
  let counter: LineCounter;
  if (located?.text === text) ({ doc, lineCounter: counter } = located);
  else {
    try {
      const yaml = await import('yaml');
      const lineCounter = new yaml.LineCounter();
      doc = yaml.parseDocument(text, { lineCounter, uniqueKeys: false, logLevel: 'silent' }) as unknown as YamlDocument;
      counter = lineCounter;
    } catch {
      return [];
    }
  }
  // The items of each mapping by key text (the first of a key given twice), made when first asked.
  const indexes = new WeakMap<object, Map<string, YamlItem>>();
  const byKey = (items: unknown[]): Map<string, YamlItem> => {
    let index = indexes.get(items);
    if (!index) {
      index = new Map();
      for (const p of items as YamlItem[]) {
        if (!p || typeof p !== 'object' || !('key' in p)) continue;
        const key = keyText(p.key);
        if (!index.has(key)) index.set(key, p);
      }
      indexes.set(items, index);
    }
    return index;
  };
  return paths.map((path) => {
    let node: YamlNode | undefined = doc.contents ?? undefined;
    let at = node?.range?.[0];
    for (const k of path) {
      if (!node || !Array.isArray(node.items)) break;
      const item: YamlItem | undefined =
        typeof k === 'number' ? (node.items[k] as YamlItem | undefined) : byKey(node.items).get(String(k));
      if (item === undefined) break;
      if (typeof k === 'number') {
        node = item as YamlNode;
        at = node.range?.[0] ?? at;
      } else {
        at = (item.key as YamlNode | undefined)?.range?.[0] ?? at;
        node = (item.value as YamlNode | undefined) ?? undefined;
      }
    }
    if (at === undefined) return undefined;
    const { line, col } = counter.linePos(at);
    return { line, column: col };
  });
}

/** The offsets at which the lines of `text` start. */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** 1-based line and column of an offset, by the offsets at which lines start. */
function positionAt(starts: number[], offset: number): { line: number; column: number } {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo + 1, column: offset - starts[lo]! + 1 };
}

/** The paths asked for, as a tree; `at` is where the text has the field, once it is found. */
interface PathTree {
  children: Map<string | number, PathTree> | undefined;
  at: number | undefined;
}

/**
 * The offset in a JSON text of each path: of its key for an object's field, of its value for a
 * list's item, and for a path the text does not have, of its deepest part that it has. One pass
 * of the JSON scanner over the text, which has been read as JSON already, following only the
 * fields asked for.
 */
function jsonOffsets(text: string, paths: ReadonlyArray<ReadonlyArray<PropertyKey>>): Array<number | undefined> {
  const root: PathTree = { children: undefined, at: undefined };
  const step = (k: PropertyKey): string | number => (typeof k === 'number' ? k : String(k));
  for (const path of paths) {
    let node = root;
    for (const k of path) {
      node.children ??= new Map();
      let child = node.children.get(step(k));
      if (!child) node.children.set(step(k), (child = { children: undefined, at: undefined }));
      node = child;
    }
  }
  // The tree of the entry last seen at each depth (0: the top value): an entry at depth d is in
  // the value of the last one at depth d - 1.
  const trees: Array<PathTree | undefined> = [];
  scanJson(text, {
    onEntry(path, at) {
      const depth = path.length;
      const tree = depth === 0 ? root : trees[depth - 1]?.children?.get(path[depth - 1]!);
      trees[depth] = tree;
      if (tree) tree.at ??= at;
    },
  });
  return paths.map((path) => {
    let node = root;
    let at = root.at;
    for (const k of path) {
      const child = node.children?.get(step(k));
      if (child?.at === undefined) break;
      node = child;
      at = child.at;
    }
    return at;
  });
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
