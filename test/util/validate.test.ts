import { describe, expect, it } from 'vitest';
import { parseDate, parseDuration, parseEmailList, parseId } from '../../src/util/validate.js';
import { parseJson, stringifyJson, idText } from '../../src/util/json.js';

describe('input validation', () => {
  it('keeps ids as their digits, whatever their size', () => {
    expect(parseId('9007199254740993', 'id')).toBe('9007199254740993');
    for (const bad of ['abc', '-1', '0', '1.5', '', '012']) expect(() => parseId(bad, 'recipe id')).toThrow(/recipe id/);
  });

  it('parses durations', () => {
    expect(parseDuration('30s', '--timeout')).toBe(30_000);
    expect(parseDuration('1h30m', '--timeout')).toBe(5_400_000);
    expect(parseDuration('500ms', '--timeout')).toBe(500);
    expect(parseDuration('2', '--timeout')).toBe(2000);
    expect(() => parseDuration('soon', '--timeout')).toThrow(/--timeout/);
    expect(() => parseDuration('30x', '--timeout')).toThrow(/--timeout/);
  });

  it('accepts only real calendar dates', () => {
    expect(parseDate('2024-02-29', '--from')).toBe('2024-02-29');
    expect(() => parseDate('2023-02-29', '--from')).toThrow(/--from/);
    expect(() => parseDate('2024-1-5', '--from')).toThrow(/YYYY-MM-DD/);
  });

  it('splits and checks e-mail lists', () => {
    expect(parseEmailList(['a@x.io,b@y.io', 'c@z.io'], '--to')).toEqual(['a@x.io', 'b@y.io', 'c@z.io']);
    expect(() => parseEmailList('a@x.io,nope', '--to')).toThrow(/--to: "nope"/);
  });
});

describe('lossless JSON', () => {
  it('round-trips integers beyond 2^53 and ids sent as strings', () => {
    const text = '{"recipe_id":9007199254740993,"ids":["18446744073709551617",12],"x":1.5}';
    const value = parseJson(text) as Record<string, any>;
    expect(stringifyJson(value)).toBe(text);
    expect(idText(value.recipe_id)).toBe('9007199254740993');
  });
});
