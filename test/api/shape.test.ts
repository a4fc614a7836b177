import { describe, expect, it } from 'vitest';
import { shapeProblem, type Answer, type Expect } from '../../src/api/shape.js';
import { textOfHtml } from '../../src/api/error-body.js';
import { MAX_JSON_DEPTH, nestsDeeperThan, parseJson, JsonTooDeepError } from '../../src/util/json.js';

const json = (text: string): Answer => ({
  text,
  data: text ? JSON.parse(text) : undefined,
  json: !!text,
  contentType: 'application/json',
});
const raw = (text: string, contentType = 'text/html'): Answer => ({ text, data: text, json: false, contentType });

describe('shapeProblem', () => {
  const cases: Array<[Answer, Expect, string | undefined]> = [
    [json('{"id": 1, "extra": true}'), ['id'], undefined],
    [json('{"id": null}'), ['id'], '`id` is missing'],
    [json('{}'), ['id', 'secret'], '`id`, `secret` are missing'],
    [json('[]'), ['id'], 'expected an object, got an array'],
    [json('"ok"'), [], 'expected an object, got a string'],
    [json(''), [], 'the body is empty'],
    [json(''), 'json', undefined],
    [json('{"count": 2, "next": null, "results": [1, 2]}'), 'page', undefined],
    [json('[1, 2]'), 'list', undefined],
    [json('{"results": {}}'), 'page', "the page's `results` is an object"],
    [json('{"results": [], "next": 5}'), 'page', "the page's `next` is a number"],
    [json('{"results": [], "count": "many"}'), 'page', "the page's `count` is not a whole number"],
    [json('{"detail": "x"}'), 'list', 'the page has no `results`'],
    [
      raw('<html><title>Sign in</title></html>'),
      'page',
      'the body is not JSON (text/html); a proxy or login page may have answered instead of the service',
    ],
    [raw('{"results": [1, 2', 'application/json'), 'page', 'the body is not valid JSON (cut short?)'],
    [
      raw('<html>'),
      'json',
      'the body is not JSON (text/html); a proxy or login page may have answered instead of the service',
    ],
    [raw('<html>'), 'any', undefined],
  ];
  for (const [answer, expect_, problem] of cases) {
    it(`${JSON.stringify(expect_)} of ${JSON.stringify(answer.text).slice(0, 40)}: ${problem ?? 'fine'}`, () => {
      expect(shapeProblem(answer, expect_)).toBe(problem);
    });
  }
});

describe('JSON depth', () => {
  it('counts arrays and objects, not brackets inside strings', () => {
    const at = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
    expect(nestsDeeperThan(at(MAX_JSON_DEPTH))).toBe(false);
    expect(nestsDeeperThan(at(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(nestsDeeperThan(`{"a": "${'['.repeat(1000)}", "b": "\\"[[["}`)).toBe(false);
    expect(() => parseJson(`{"x": ${at(5000)}}`)).toThrow(JsonTooDeepError);
    expect(parseJson(`{"id": 12345678901234567890, "x": ${at(10)}}`)).toMatchObject({ x: expect.any(Array) });
  });
});

describe('textOfHtml', () => {
  it('takes the title, else the text without tags, scripts and styles', () => {
    expect(textOfHtml('<html><head><TITLE>502 Bad Gateway</TITLE></head><body>x</body></html>')).toBe(
      '502 Bad Gateway',
    );
    expect(
      textOfHtml('<p>Service <b>down</b></p><script>var a = "<p>no</p>";</script><style>p{}</style> for now'),
    ).toBe('Service down for now');
    expect(textOfHtml('')).toBe('error');
    expect(textOfHtml(`<p>${'word '.repeat(100)}</p>`)).toHaveLength(200);
  });

  it('reads pages built to make a pattern backtrack in one pass', () => {
    // Each took the old patterns seconds to minutes; all of them together must finish at once.
    for (const page of [
      '<title'.repeat(400_000),
      '<'.repeat(2_000_000),
      '<script'.repeat(300_000),
      `${'<style></style>'.repeat(100_000)}<script`,
    ]) {
      expect(typeof textOfHtml(page)).toBe('string');
    }
  });
});
