import { describe, expect, it } from 'vitest';
import {
  JsonDuplicateKeyError,
  JsonNumberRangeError,
  JsonTooDeepError,
  type JsonPath,
  LosslessNumber,
  MAX_JSON_DEPTH,
  parseJson,
  scanJson,
} from '../../src/util/json.js';

const duplicate = (text: string) => {
  try {
    parseJson(text, { uniqueKeys: true });
  } catch (err) {
    if (err instanceof JsonDuplicateKeyError) return { key: err.key, path: err.path, message: err.message };
    throw err;
  }
  return undefined;
};

describe('parseJson with unique keys (a service answer)', () => {
  it('refuses a key given twice, at any depth, naming it and where', () => {
    expect(duplicate('{"count":1,"results":[{"id":1}],"results":[]}')).toEqual({
      key: 'results',
      path: [],
      message: 'the key "results" is given twice in one object (at the top level)',
    });
    expect(duplicate('{"results":[{"id":1},{"id":2,"title":"a","id":3}]}')).toMatchObject({
      key: 'id',
      path: ['results', 1],
      message: 'the key "id" is given twice in one object (in results[1])',
    });
    expect(duplicate('{"a":{"b":{"c":1,"c":2}}}')).toMatchObject({ key: 'c', path: ['a', 'b'] });
    // Escapes are read as JSON reads them: "\u0069d" is "id".
    expect(duplicate('{"id":1,"\\u0069d":2}')).toMatchObject({ key: 'id' });
  });

  it('reads the same key in different objects, keys inside strings and strings with quotes as they are', () => {
    const text = '[{"id":1,"t":"\\"id\\":2,"},{"id":2,"t":"{\\"id\\":1,\\"id\\":1}"}]';
    expect(duplicate(text)).toBeUndefined();
    expect(parseJson(text, { uniqueKeys: true })).toEqual(JSON.parse(text));
    expect(duplicate('{"a":[1,{"a":2}],"b":{"a":3}}')).toBeUndefined();
  });

  it('keeps big integers exact and still refuses JSON nested too deep', () => {
    expect(parseJson('{"id":9007199254740993}', { uniqueKeys: true })).toEqual({
      id: new LosslessNumber('9007199254740993'),
    });
    const deep = '['.repeat(MAX_JSON_DEPTH + 1) + ']'.repeat(MAX_JSON_DEPTH + 1);
    expect(() => parseJson(deep, { uniqueKeys: true })).toThrow(JsonTooDeepError);
    const deepest = '['.repeat(MAX_JSON_DEPTH) + ']'.repeat(MAX_JSON_DEPTH);
    expect(() => parseJson(deepest, { uniqueKeys: true })).not.toThrow();
  });

  it('without unique keys, reads last-wins as JSON does', () => {
    expect(parseJson('{"a":1,"a":2}')).toEqual({ a: 2 });
  });

  it('one scanner finds the first container too deep and the first key given twice, with the path to each; strings are skipped', () => {
    const text = '{"a": "[[[{\\"", "b\\u0031": [1, {"c": [[]]}], "d": 1, "d": 2}';
    expect(scanJson(text, { maxDepth: 3 })).toEqual({ kind: 'depth', path: ['b1', 1, 'c'], at: text.indexOf('[[]') });
    expect(scanJson(text, { maxDepth: 5 })).toBeUndefined();
    expect(scanJson(text, { maxDepth: 5, uniqueKeys: true })).toEqual({
      kind: 'duplicate',
      key: 'd',
      path: [],
      at: text.lastIndexOf('"d"'),
    });
  });

  it('with finiteNumbers, finds the first number a double cannot hold, with its path; strings and keys are skipped', () => {
    const text = '{"1e400": "1e400", "a": [1e308, -2.5e-400, {"b": -1E+400}], "c": 1e400}';
    expect(scanJson(text, { finiteNumbers: true })).toEqual({
      kind: 'number',
      number: '-1E+400',
      path: ['a', 2, 'b'],
      at: text.indexOf('-1E+400'),
    });
    expect(scanJson(text, {})).toBeUndefined();
    expect(() => parseJson(text, { finiteNumbers: true })).toThrow(JsonNumberRangeError);
    expect(() => parseJson(text, { finiteNumbers: true })).toThrow('the number -1E+400 is too large');
    // A service's answer is read as before: only a file asks for the check.
    expect(parseJson('[1e400]', { uniqueKeys: true })).toEqual([Infinity]);
  });

  it('tells each place a value has, in the order of the text, with the path to it: list items at their value, members at their key', () => {
    const text = ' {"a": [ 1, {"b\\u0031": null}, [ ]], "c": "[1, {\\"d\\": 2}"}\n';
    const entries: Array<[JsonPath, number]> = [];
    const found = scanJson(text, { uniqueKeys: true, onEntry: (path, at) => entries.push([path.slice(), at]) });
    expect(found).toBeUndefined();
    expect(entries).toEqual([
      [[], 1],
      [['a'], text.indexOf('"a"')],
      [['a', 0], text.indexOf('1')],
      [['a', 1], text.indexOf('{"b')],
      [['a', 1, 'b1'], text.indexOf('"b')],
      [['a', 2], text.indexOf('[ ]')],
      [['c'], text.indexOf('"c"')],
    ]);
  });
});
