import { describe, expect, it } from 'vitest';
import { isDate, parseDate, parseDuration, parseEmailList, parseId } from '../../src/util/validate.js';
import { parseJson, stringifyJson, idText } from '../../src/util/json.js';

describe('input validation', () => {
  it('keeps ids as their digits, whatever their size', () => {
    expect(parseId('9007199254740993', 'id')).toBe('9007199254740993');
    for (const bad of ['abc', '-1', '0', '1.5', '', '012'])
      expect(() => parseId(bad, 'recipe id')).toThrow(/recipe id/);
  });

  it('parses durations', () => {
    expect(parseDuration('30s', '--timeout')).toBe(30_000);
    expect(parseDuration('1h30m', '--timeout')).toBe(5_400_000);
    expect(parseDuration('500ms', '--timeout')).toBe(500);
    expect(parseDuration('2', '--timeout')).toBe(2000);
    expect(() => parseDuration('soon', '--timeout')).toThrow(/--timeout/);
    expect(() => parseDuration('30x', '--timeout')).toThrow(/--timeout/);
  });

  it('refuses a duration longer than a timer can hold, naming the flag', () => {
    expect(parseDuration('596h', '--timeout')).toBe(596 * 3_600_000);
    expect(() => parseDuration('99999999999h', '--timeout')).toThrow('--timeout must be at most 24 days');
    expect(() => parseDuration('597h', '--wait-timeout')).toThrow(/^--wait-timeout must be at most/);
    expect(() => parseDuration('1e9', '--timeout')).toThrow(/--timeout/);
  });

  it('accepts only real calendar dates', () => {
    expect(parseDate('2024-02-29', '--from')).toBe('2024-02-29');
    expect(() => parseDate('2023-02-29', '--from')).toThrow(/--from/);
    expect(() => parseDate('2024-1-5', '--from')).toThrow(/YYYY-MM-DD/);
    expect(['2024-02-29', '2000-02-29', '1999-12-31'].map(isDate)).toEqual([true, true, true]);
    expect(
      ['1900-02-29', '2024-04-31', '2024-13-01', '2024-00-10', ' 2024-01-01', '2024-01-01T00:00'].map(isDate),
    ).toEqual([false, false, false, false, false, false]);
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

  it('shows an id the service sent as an object or a list as its JSON, never [object Object]', () => {
    const value = parseJson('{"a":{"id":9007199254740993},"b":[1,"x"]}') as Record<string, unknown>;
    expect(idText(value.a)).toBe('{"id":9007199254740993}');
    expect(idText(value.b)).toBe('[1,"x"]');
    expect(idText(null)).toBe('');
  });
});

describe('JSON fast and lossless paths', () => {
  it('parses ordinary text natively and long integers losslessly, wherever they stand', () => {
    expect(parseJson('{"a":1,"b":[1.5,"x"]}')).toEqual({ a: 1, b: [1.5, 'x'] });
    for (const text of [
      '9007199254740993',
      '[9007199254740993]',
      '{"a": 9007199254740993}',
      '{"a":[1, -9007199254740993]}',
    ]) {
      expect(stringifyJson(parseJson(text))).toBe(text.replace(/\s/g, ''));
    }
  });

  it('stays exact when a long digit run also appears inside a string', () => {
    const text = '{"note":"id:12345678901234567890","id":12345678901234567890}';
    expect(stringifyJson(parseJson(text))).toBe(text);
  });

  it('writes bigint and LosslessNumber bare, also indented, and leaves look-alike strings alone', () => {
    expect(stringifyJson({ a: 18446744073709551617n, b: '\u0000#12' }, 2)).toBe(
      '{\n  "a": 18446744073709551617,\n  "b": "\\u0000#12"\n}',
    );
  });
});
