import { parse, isInteger, isSafeNumber, LosslessNumber } from 'lossless-json';

export { LosslessNumber };

/**
 * An integer literal of 16 or more digits where a JSON value can start (after `:`, `[`, `,` or
 * at the top): the only place a number can lose precision. A match inside a string only sends
 * the text down the slower lossless path, which is still exact.
 */
const LONG_INTEGER = /(?:^|[:[,])\s*-?\d{16,}/;

/**
 * Parses JSON without losing integers beyond 2^53: those become LosslessNumber and are written
 * back digit for digit. Recipe ids are such integers, and some lists send them as strings;
 * both round-trip exactly. Text without long integers takes the native parser.
 */
export function parseJson(text: string): unknown {
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

/** The canonical text of an identifier, whether the service sent a number, a big number or a string. */
export function idText(value: unknown): string {
  if (value === null || value === undefined) return '';
  return String(value);
}
