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
  constructor() {
    super(`JSON nested deeper than ${MAX_JSON_DEPTH} levels`);
    this.name = 'JsonTooDeepError';
  }
}

/** Whether `text` opens more than `max` arrays or objects at once, strings skipped. One pass. */
export function nestsDeeperThan(text: string, max = MAX_JSON_DEPTH): boolean {
  if (text.length <= max) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/** A key given twice in one object of a JSON text that must not have any (a service's answer). */
export class JsonDuplicateKeyError extends SyntaxError {
  constructor(
    readonly key: string,
    /** the path of the object holding it: `results`, 0, … */
    readonly path: Array<string | number>,
  ) {
    const where = path.length === 0 ? 'at the top level' : `in ${pathText(path)}`;
    super(`the key ${JSON.stringify(key)} is given twice in one object (${where})`);
    this.name = 'JsonDuplicateKeyError';
  }
}

/** `results[0].connections`: a path into a JSON value, as a person reads it. */
function pathText(path: Array<string | number>): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
}

/**
 * One pass over JSON text, strings skipped: JsonTooDeepError past MAX_JSON_DEPTH levels, and
 * JsonDuplicateKeyError for the first key given twice in one object. A key is compared as
 * JSON reads it (escapes resolved), and only keys are ever cut out of the text.
 */
function checkDepthAndKeys(text: string): void {
  // The keys of each object open (a list's entry is undefined): an array while few, then a Set.
  const keys: Array<string[] | Set<string> | undefined> = [];
  // The path to the value being read: the current key of each object, the index in each list.
  const at: Array<string | number> = [];
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // The closing quote is the next one not escaped (after an even run of backslashes).
      const start = i;
      for (;;) {
        i = text.indexOf('"', i + 1);
        if (i < 0) {
          i = text.length;
          break;
        }
        let backslashes = 0;
        while (text.charCodeAt(i - 1 - backslashes) === 0x5c) backslashes++;
        if (backslashes % 2 === 0) break;
      }
      const seen = expectKey ? keys[keys.length - 1] : undefined;
      if (seen) {
        const raw = text.slice(start + 1, i);
        const key = raw.includes('\\') ? keyOf(text.slice(start, i + 1)) : raw;
        if (Array.isArray(seen)) {
          if (seen.includes(key)) throw new JsonDuplicateKeyError(key, at.slice(0, -1));
          seen.push(key);
          if (seen.length > 16) keys[keys.length - 1] = new Set(seen);
        } else {
          if (seen.has(key)) throw new JsonDuplicateKeyError(key, at.slice(0, -1));
          seen.add(key);
        }
        at[at.length - 1] = key;
      }
      expectKey = false;
    } else if (c === 0x7b || c === 0x5b) {
      if (keys.length >= MAX_JSON_DEPTH) throw new JsonTooDeepError();
      keys.push(c === 0x7b ? [] : undefined);
      at.push(c === 0x7b ? '' : 0);
      expectKey = c === 0x7b;
    } else if (c === 0x7d || c === 0x5d) {
      keys.pop();
      at.pop();
      expectKey = false;
    } else if (c === 0x2c) {
      const top = at.length - 1;
      if (top >= 0 && typeof at[top] === 'number') at[top] = (at[top] as number) + 1;
      else expectKey = top >= 0;
    }
  }
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
 * service's answer, which a parser would otherwise read last-wins), a key given twice in one
 * object throws JsonDuplicateKeyError (a SyntaxError), found in the same pass as the depth.
 */
export function parseJson(text: string, opts: { uniqueKeys?: boolean } = {}): unknown {
  if (opts.uniqueKeys) checkDepthAndKeys(text);
  else if (nestsDeeperThan(text)) throw new JsonTooDeepError();
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

/** A key given twice in one object of a JSON text: where, and on which line. */
export interface DuplicateKey {
  /** the path of the object holding it */
  path: Array<string | number>;
  key: string;
  line: number;
}

/**
 * The first key that appears twice in one object of JSON `text`, found in one pass over the
 * text. JSON.parse keeps the last silently; a document a person wrote (a fleet file) should
 * say so instead, as YAML does. Undefined when there is none (the text may still be malformed).
 */
/**
 * The index of the `"` that closes the JSON string opening at `start`, escapes skipped (past the
 * end of `text` when it never closes): the one string scan of the tool's JSON scanners.
 */
export function stringEnd(text: string, start: number): number {
  let i = start + 1;
  for (; i < text.length; i++) {
    const d = text.charCodeAt(i);
    if (d === 0x5c) i++;
    else if (d === 0x22) break;
  }
  return i;
}

export function duplicateKey(text: string): DuplicateKey | undefined {
  const stack: Array<{ keys: Set<string> | undefined; key: string | number }> = [];
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      const start = i;
      i = stringEnd(text, i);
      const top = stack.at(-1);
      if (expectKey && top?.keys) {
        let key: string;
        try {
          key = JSON.parse(text.slice(start, i + 1)) as string;
        } catch {
          key = text.slice(start + 1, i);
        }
        if (top.keys.has(key)) {
          const line = text.slice(0, start).split('\n').length;
          return { path: stack.slice(0, -1).map((f) => f.key), key, line };
        }
        top.keys.add(key);
        top.key = key;
        expectKey = false;
      }
    } else if (c === 0x7b || c === 0x5b) {
      // The path to a value is the current key of each frame above it.
      stack.push({ keys: c === 0x7b ? new Set() : undefined, key: c === 0x5b ? 0 : '' });
      expectKey = c === 0x7b;
    } else if (c === 0x7d || c === 0x5d) {
      stack.pop();
      expectKey = false;
    } else if (c === 0x2c) {
      const top = stack.at(-1);
      if (top && !top.keys) top.key = (top.key as number) + 1;
      else expectKey = true;
    }
  }
  return undefined;
}

/** A JSON integer id from a body (number or a big number). */
export function idOf(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (value instanceof LosslessNumber && /^\d+$/.test(value.value)) return Number(value.value);
  return undefined;
}
