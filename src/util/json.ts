import { parse, stringify, isInteger, isSafeNumber, LosslessNumber } from 'lossless-json';

export { LosslessNumber };

/**
 * Parses JSON without losing integers beyond 2^53: those stay LosslessNumber and are written
 * back digit for digit. Recipe ids are such integers, and some lists send them as strings;
 * both round-trip exactly.
 */
export function parseJson(text: string): unknown {
  return parse(text, null, (value: string) =>
    isInteger(value) && !isSafeNumber(value) ? new LosslessNumber(value) : Number(value),
  );
}

export function stringifyJson(value: unknown, indent?: number): string {
  return stringify(value, null, indent) ?? 'null';
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
