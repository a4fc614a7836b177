import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { MAX_BODY_DEPTH, MAX_BODY_VALUES, checkBodyLimits, tooDeepPath } from '../../src/sandbox/limits.js';
import { fieldPath } from '../../src/util/field-path.js';
import { LosslessNumber } from '../../src/util/json.js';
import { http, sandbox, tempDir, tokenFor } from '../helpers.js';

/** `{"a":{"a":…leaf…}}`, `levels` objects deep, as text (no recursion needed to build it). */
const nestedText = (levels: number, leaf = '1') => '{"a":'.repeat(levels) + leaf + '}'.repeat(levels);
const pathOf = (levels: number) => Array.from({ length: levels }, () => 'a').join('.');

describe('body limits (unit)', () => {
  it('accepts a body exactly at the limits', () => {
    expect(() => checkBodyLimits(JSON.parse(nestedText(MAX_BODY_DEPTH)))).not.toThrow();
    expect(() => checkBodyLimits({ list: Array.from({ length: MAX_BODY_VALUES - 2 }, () => 0) })).not.toThrow();
    expect(() => checkBodyLimits({ big: new LosslessNumber('12345678901234567890') })).not.toThrow();
  });

  it('names the value one level too deep', () => {
    try {
      checkBodyLimits({ x: [JSON.parse(nestedText(MAX_BODY_DEPTH))] });
      expect.unreachable();
    } catch (err: any) {
      expect(err.code).toBe('validation_error');
      // The body is level 1; the value at level 33 has a path of 32 steps: x, [0], then 30 `a`.
      expect(err.details.fields).toEqual([
        {
          field: `x[0].${pathOf(MAX_BODY_DEPTH - 2)}`,
          code: 'max_depth',
          message: `Nested more than ${MAX_BODY_DEPTH} levels deep.`,
        },
      ]);
    }
  });

  it('names the innermost field holding too many values, or the body as a whole', () => {
    const many = Array.from({ length: MAX_BODY_VALUES }, () => 0);
    try {
      checkBodyLimits({ title: 'x', settings: { filters: many } });
      expect.unreachable();
    } catch (err: any) {
      expect(err.details.fields).toEqual([
        { field: 'settings.filters', code: 'max_size', message: expect.any(String) },
      ]);
    }
    const half = Array.from({ length: MAX_BODY_VALUES / 2 }, () => 0);
    try {
      checkBodyLimits({ a: half, b: half });
      expect.unreachable();
    } catch (err: any) {
      expect(err.details.fields[0].field).toBe('');
    }
  });
});

describe('body limits (HTTP)', () => {
  let sb: Sandbox;
  let token: string;
  let extractId: number;
  const dir = tempDir('edp-limits-');
  beforeAll(async () => {
    sb = await sandbox({ stateFile: `${dir.dir}/state.json` });
    token = await tokenFor(sb, 101);
    extractId = (await http(sb, 'GET', '/api/v3/extracts', { token })).body.results[0].id;
  });
  afterAll(async () => {
    await sb.close();
    dir.remove();
  });

  it('refuses a free-form field nested 5,000 deep with 400 naming the field ({detail} envelope), and keeps serving', async () => {
    const r = await http(sb, 'PATCH', `/api/v3/extracts/${extractId}`, {
      token,
      rawBody: `{"template_settings": {"custom_filters": [${nestedText(5000)}]}}`,
    });
    expect(r.status).toBe(400);
    const field = `template_settings.custom_filters[0].${pathOf(MAX_BODY_DEPTH - 3)}`;
    expect(r.body).toEqual({
      detail: 'The request body is invalid.',
      [field]: [`Nested more than ${MAX_BODY_DEPTH} levels deep.`],
    });
    // Nothing was stored; the next change saves as usual.
    const ok = await http(sb, 'PATCH', `/api/v3/extracts/${extractId}`, {
      token,
      body: { template_settings: { custom_filters: [{ field: 'x', eq: 1 }] } },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.template_settings.custom_filters).toEqual([{ field: 'x', eq: 1 }]);
  });

  it('answers the v3.1 recipe operations with validation_error in {code, message, details}', async () => {
    const r = await http(sb, 'POST', '/api/v3.1/automated-recipes/', {
      token,
      rawBody: `{"template_id": 4001, "settings": ${nestedText(40)}}`,
    });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      code: 'validation_error',
      message: 'The request body is invalid.',
      details: {
        fields: [
          {
            field: `settings.${pathOf(MAX_BODY_DEPTH - 1)}`,
            code: 'max_depth',
            message: `Nested more than ${MAX_BODY_DEPTH} levels deep.`,
          },
        ],
      },
    });
  });

  it('refuses a field holding too many values', async () => {
    const values = Array.from({ length: MAX_BODY_VALUES }, (_, i) => i).join(',');
    const r = await http(sb, 'PATCH', `/api/v3/extracts/${extractId}`, {
      token,
      rawBody: `{"template_settings": {"custom_filters": [${values}]}}`,
    });
    expect(r.status).toBe(400);
    expect(r.body['template_settings.custom_filters']).toEqual([`Holds more than ${MAX_BODY_VALUES} values.`]);
  });

  it('refuses a body too deep for the parser as too deep, not as malformed, naming the field', async () => {
    // A long integer would send the text through the lossless parser, which recurses: the
    // depth is found in a pass over the text before any parsing.
    const r = await http(sb, 'PATCH', `/api/v3/extracts/${extractId}`, {
      token,
      rawBody: nestedText(200_000, '12345678901234567890'),
    });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      detail: 'The request body is invalid.',
      [pathOf(MAX_BODY_DEPTH)]: [`Nested more than ${MAX_BODY_DEPTH} levels deep.`],
    });
    // Cut short as well as too deep: too deep is what is said.
    const cut = await http(sb, 'PATCH', `/api/v3/extracts/${extractId}`, { token, rawBody: '['.repeat(100_000) });
    expect(cut.body).toEqual({
      detail: 'The request body is invalid.',
      ['[0]'.repeat(MAX_BODY_DEPTH)]: [`Nested more than ${MAX_BODY_DEPTH} levels deep.`],
    });
  });

  it('the pass over the text names the same field as the check of the parsed body', () => {
    const texts = [
      `{"x": [${nestedText(MAX_BODY_DEPTH)}]}`,
      `{"a": 1, "b\\"c": {"d": [0, "],[", ${'['.repeat(40)}${']'.repeat(40)}]}}`,
      `[{"k": "v"}, {"k,": {"m": ${nestedText(40)}}}]`,
      nestedText(MAX_BODY_DEPTH),
    ];
    for (const text of texts) {
      let named: string | undefined;
      try {
        checkBodyLimits(JSON.parse(text));
      } catch (err: any) {
        named = err.details.fields[0].field;
      }
      const path = tooDeepPath(text);
      expect(path && fieldPath(path)).toBe(named);
    }
  });
});
