import { parse, isInteger, isSafeNumber, LosslessNumber } from 'lossless-json';

export { LosslessNumber };

/**
 * An integer literal of 16 or more digits where a JSON value can start (after `:`, `[`, `,` or
 * at the top): the only place a number can lose precision. A match inside a string only sends
 * the text down the slower lossless path, which is still exact.
 */
const LONG_INTEGER = /(?:^|[:[,])\s*-?\d{16,}/;

/**
 * How deep a JSON document may nest. The service's answers and the fleet files nest a handful
 * of levels; thousands would overflow the stack of whatever walks the value later (printing,
 * re-serialising, the lossless parser), so deeper text is refused before it is parsed.
 */
export const MAX_JSON_DEPTH = 256;

/** JSON nested deeper than MAX_JSON_DEPTH. */
export class JsonTooDeepError extends SyntaxError {
  constructor(
    /** the path to the object or array that opens one level too deep, and its offset in the text */
    readonly path: JsonPath = [],
    readonly at: number | undefined = undefined,
  ) {
    super(`JSON nested deeper than ${MAX_JSON_DEPTH} levels`);
    this.name = 'JsonTooDeepError';
  }
}

/** Whether `text` opens more than `max` arrays or objects at once, strings skipped. One pass. */
export function nestsDeeperThan(text: string, max = MAX_JSON_DEPTH): boolean {
  return text.length > max && scanJson(text, { maxDepth: max }) !== undefined;
}

/** A key given twice in one object of a JSON text that must not have any (a service's answer). */
export class JsonDuplicateKeyError extends SyntaxError {
  constructor(
    readonly key: string,
    /** the path of the object holding it: `results`, 0, … */
    readonly path: Array<string | number>,
    /** the offset of its second occurrence in the text */
    readonly at: number | undefined = undefined,
  ) {
    const where = path.length === 0 ? 'at the top level' : `in ${pathText(path)}`;
    super(`the key ${JSON.stringify(key)} is given twice in one object (${where})`);
    this.name = 'JsonDuplicateKeyError';
  }
}

/**
 * A number whose value a double cannot hold (`1e400`, `-1e400`): JSON.parse would read it as
 * Infinity, which then passes for no number at all, or is written back as `null`.
 */
export class JsonNumberRangeError extends SyntaxError {
  constructor(
    /** the number as written */
    readonly number: string,
    /** the path to it */
    readonly path: JsonPath,
    /** its offset in the text */
    readonly at: number,
  ) {
    super(`the number ${number.length > 40 ? `${number.slice(0, 37)}...` : number} ${NUMBER_RANGE}`);
    this.name = 'JsonNumberRangeError';
  }
}

/** What is wrong with a number too large in size for a double, in the words of every file's check. */
export const NUMBER_RANGE = 'is too large: a number must be within ±1.8e308';

/** `results[0].connections`: a path into a JSON value, as a person reads it. */
function pathText(path: Array<string | number>): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
}

/**
 * JsonTooDeepError past MAX_JSON_DEPTH levels, with `uniqueKeys` JsonDuplicateKeyError for the
 * first key given twice in one object, and with `finiteNumbers` JsonNumberRangeError for the
 * first number too large for a double: the first found in one pass (scanJson).
 */
function checkText(text: string, opts: { uniqueKeys?: boolean; finiteNumbers?: boolean }): void {
  const problem = scanJson(text, {
    maxDepth: MAX_JSON_DEPTH,
    uniqueKeys: opts.uniqueKeys,
    // Only a number with an exponent of three digits or one of hundreds of digits can be out of
    // range: other text skips the look at each number.
    finiteNumbers: opts.finiteNumbers && MAYBE_OUT_OF_RANGE.test(text),
  });
  if (problem?.kind === 'depth') throw new JsonTooDeepError(problem.path, problem.at);
  if (problem?.kind === 'duplicate') throw new JsonDuplicateKeyError(problem.key, problem.path, problem.at);
  if (problem?.kind === 'number') throw new JsonNumberRangeError(problem.number, problem.path, problem.at);
}

/** Text that may hold a number out of a double's range (or a string that looks like one). */
const MAYBE_OUT_OF_RANGE = /\d[eE]\+?\d{3}|\d{300}/;

/** A path into a JSON value: the key or index at each level. */
export type JsonPath = Array<string | number>;

/** What `scanJson` finds first: a container too deep, a key given twice in one object, a number out of range. */
export type JsonScanProblem =
  | {
      kind: 'depth';
      /** the path to the object or array that opens one level too deep */
      path: JsonPath;
      /** its offset in the text */
      at: number;
    }
  | {
      kind: 'duplicate';
      key: string;
      /** the path of the object holding it */
      path: JsonPath;
      /** the offset of its second occurrence */
      at: number;
    }
  | {
      kind: 'number';
      /** the number as written */
      number: string;
      /** the path to it */
      path: JsonPath;
      at: number;
    };

/** What `scanJson` looks for, and what it tells as it goes. */
export interface JsonScanOptions {
  maxDepth?: number;
  uniqueKeys?: boolean | undefined;
  /** look for a number a double cannot hold (`1e400`), which a parser would read as Infinity */
  finiteNumbers?: boolean | undefined;
  /**
   * Called at each place a value has in the text, in the order of the text, with the path to it
   * (the scanner's own array: read it during the call only): the top value and each item of a
   * list at the value's first character, each member of an object at its key's opening quote.
   */
  onEntry?: (path: JsonPath, at: number) => void;
}

/**
 * The tool's one JSON scanner, a pass over the text before a parser sees it (service answers,
 * the fleet files, the sandbox's request bodies) or to place a path in it (a document's
 * problems, with `onEntry`): the first object or array that opens more than `maxDepth` levels
 * deep, and with `uniqueKeys` the first key given twice in one object (which a parser would
 * read last-wins), and with `finiteNumbers` the first number out of a double's range, each with
 * the path to it. Strings are skipped; a key is compared as JSON reads it (escapes resolved), and
 * only keys (and with `finiteNumbers`, numbers) are ever cut out of the text. Undefined when none
 * is found: the text may still be malformed, which the parser reports.
 */
export function scanJson(text: string, opts: JsonScanOptions): JsonScanProblem | undefined {
  const maxDepth = opts.maxDepth ?? Infinity;
  const unique = !!opts.uniqueKeys;
  const numbers = !!opts.finiteNumbers;
  const onEntry = opts.onEntry;
  // The current key of each object open, the index in each list.
  const path: JsonPath = [];
  // With uniqueKeys, the keys of each object open (undefined for a list): an array while few, then a Set.
  const seen: Array<string[] | Set<string> | undefined> = [];
  // With onEntry, the value that starts at or after `from` (past JSON's white space), if one does.
  const entry = (from: number) => {
    let at = from;
    while (at < text.length && isJsonSpace(text.charCodeAt(at))) at++;
    if (at < text.length && text.charCodeAt(at) !== 0x5d) onEntry!(path, at);
  };
  if (onEntry) entry(0);
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      const start = i;
      i = stringEnd(text, i);
      if (!expectKey) continue;
      expectKey = false;
      const raw = text.slice(start + 1, i);
      const key = raw.includes('\\') ? keyOf(text.slice(start, i + 1)) : raw;
      const keys = unique ? seen[seen.length - 1] : undefined;
      if (Array.isArray(keys)) {
        if (keys.includes(key)) return { kind: 'duplicate', key, path: path.slice(0, -1), at: start };
        keys.push(key);
        if (keys.length > 16) seen[seen.length - 1] = new Set(keys);
      } else if (keys) {
        if (keys.has(key)) return { kind: 'duplicate', key, path: path.slice(0, -1), at: start };
        keys.add(key);
      }
      path[path.length - 1] = key;
      if (onEntry) onEntry(path, start);
    } else if (c === 0x7b || c === 0x5b) {
      if (path.length >= maxDepth) return { kind: 'depth', path: path.slice(), at: i };
      const object = c === 0x7b;
      path.push(object ? '' : 0);
      if (unique) seen.push(object ? [] : undefined);
      expectKey = object;
      if (onEntry && !object) entry(i + 1);
    } else if (c === 0x7d || c === 0x5d) {
      path.pop();
      if (unique) seen.pop();
      expectKey = false;
    } else if (c === 0x2c) {
      const top = path.length - 1;
      if (top >= 0 && typeof path[top] === 'number') {
        path[top] = (path[top] as number) + 1;
        if (onEntry) entry(i + 1);
      } else expectKey = top >= 0;
    } else if (numbers && (c === 0x2d || (c >= 0x30 && c <= 0x39))) {
      NUMBER.lastIndex = i;
      const number = NUMBER.exec(text)?.[0] ?? text[i]!;
      if (!Number.isFinite(Number(number))) return { kind: 'number', number, path: path.slice(), at: i };
      i += number.length - 1;
    }
  }
  return undefined;
}

/** A JSON number, from where it starts. */
const NUMBER = /-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?/y;

/** Whether `c` is a character of JSON's white space (space, tab, line feed, carriage return). */
function isJsonSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/** A quoted key with escapes, as JSON reads it (the text between the quotes when it is not valid). */
function keyOf(quoted: string): string {
  try {
    return JSON.parse(quoted) as string;
  } catch {
    return quoted.slice(1, -1);
  }
}

/**
 * Parses JSON without losing integers beyond 2^53: those become LosslessNumber and are written
 * back digit for digit. Recipe ids are such integers, and some lists send them as strings;
 * both round-trip exactly. Text without long integers takes the native parser. Text nested
 * deeper than MAX_JSON_DEPTH throws JsonTooDeepError (a SyntaxError). With `uniqueKeys` (a
 * service's answer, a file, which a parser would otherwise read last-wins), a key given twice in
 * one object throws JsonDuplicateKeyError; with `finiteNumbers` (a file), a number a double cannot
 * hold throws JsonNumberRangeError (SyntaxErrors, found in the same pass as the depth).
 */
export function parseJson(text: string, opts: { uniqueKeys?: boolean; finiteNumbers?: boolean } = {}): unknown {
  if (opts.uniqueKeys || opts.finiteNumbers) checkText(text, opts);
  else if (text.length > MAX_JSON_DEPTH) {
    const deep = scanJson(text, { maxDepth: MAX_JSON_DEPTH });
    if (deep?.kind === 'depth') throw new JsonTooDeepError(deep.path, deep.at);
  }
  if (!LONG_INTEGER.test(text)) return JSON.parse(text);
  return parse(text, null, (value: string) =>
    isInteger(value) && !isSafeNumber(value) ? new LosslessNumber(value) : Number(value),
  );
}

/**
 * Serializes with the native stringifier; LosslessNumber and bigint values are written as bare
 * numbers, exactly as received. They travel through the native stringifier as strings carrying
 * a marker with a fresh random part, which no string of the data can match by accident.
 */
export function stringifyJson(value: unknown, indent?: number): string {
  let mark: string | undefined;
  const text = JSON.stringify(
    value,
    (_key, v: unknown) => {
      if (v instanceof LosslessNumber || typeof v === 'bigint') {
        mark ??= `\u0000${Math.random().toString(36).slice(2)}#`;
        return mark + (typeof v === 'bigint' ? v.toString() : v.value);
      }
      return v;
    },
    indent,
  );
  if (text === undefined) return 'null';
  if (mark === undefined) return text;
  const escaped = JSON.stringify(mark)
    .slice(1, -1)
    .replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');
  return text.replace(new RegExp(`"${escaped}(-?\\d+(?:\\.\\d+)?(?:[eE][+-]?\\d+)?)"`, 'g'), '$1');
}

/** A JSON integer for a request body, from the digits the user typed (any size). */
export function jsonInteger(digits: string): number | LosslessNumber {
  return isSafeNumber(digits) ? Number(digits) : new LosslessNumber(digits);
}

/**
 * The canonical text of an identifier, whether the service sent a number, a big number or a
 * string; anything else it sent in its place (an object, a list) as its JSON.
 */
export function idText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object' && !(value instanceof LosslessNumber)) return stringifyJson(value);
  return String(value);
}

/**
 * The index of the `"` that closes the JSON string opening at `start` (the next one after an
 * even run of backslashes), or the end of `text` when it never closes.
 */
export function stringEnd(text: string, start: number): number {
  let i = start;
  for (;;) {
    i = text.indexOf('"', i + 1);
    if (i < 0) return text.length;
    let backslashes = 0;
    while (text.charCodeAt(i - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return i;
  }
}

/** A JSON integer id from a body (number or a big number). */
export function idOf(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (value instanceof LosslessNumber && /^\d+$/.test(value.value)) return Number(value.value);
  return undefined;
}
