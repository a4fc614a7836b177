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

/**
 * Parses JSON without losing integers beyond 2^53: those become LosslessNumber and are written
 * back digit for digit. Recipe ids are such integers, and some lists send them as strings;
 * both round-trip exactly. Text without long integers takes the native parser. Text nested
 * deeper than MAX_JSON_DEPTH throws JsonTooDeepError (a SyntaxError).
 */
export function parseJson(text: string): unknown {
  if (nestsDeeperThan(text)) throw new JsonTooDeepError();
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
export function duplicateKey(text: string): DuplicateKey | undefined {
  const stack: Array<{ keys: Set<string> | undefined; key: string | number }> = [];
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      const start = i;
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c) i++;
        else if (d === 0x22) break;
      }
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
