import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { checkWellFormed } from '../../src/sandbox/limits.js';
import { http, sandbox, tokenFor } from '../helpers.js';

/**
 * Bodies are JSON in UTF-8, as the service's: bytes that are not UTF-8 are not JSON text
 * (`malformed_request`), and a string holding a lone surrogate (only an escape can) is no text
 * (`validation_error` naming the field). Each in the error envelope of the path it was sent to.
 */

let sb: Sandbox;
let token: string;
beforeAll(async () => {
  sb = await sandbox();
  token = await tokenFor(sb, 101);
});
afterAll(() => sb.close());

/** Sends `bytes` as a JSON body, as they are. */
async function sendBytes(method: string, path: string, bytes: Uint8Array, auth: string) {
  const res = await fetch(`${sb.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: auth },
    body: bytes,
  });
  return { status: res.status, body: JSON.parse(await res.text()) };
}

const basic = `Basic ${Buffer.from('agency@sandbox.local:sandbox').toString('base64')}`;
const titles = () => sb.store.state.workspaces.map((w) => w.title);

describe('request bodies that are not UTF-8', () => {
  it('are malformed_request in {detail} (v3), and nothing is made', async () => {
    const before = titles().length;
    // "Caf\xe9": Latin-1, not UTF-8.
    const latin1 = Buffer.concat([Buffer.from('{"title": "Caf'), Buffer.from([0xe9]), Buffer.from('"}')]);
    const r = await sendBytes('POST', '/api/v3/workspaces', latin1, basic);
    expect(r).toEqual({ status: 400, body: { detail: 'The request body is not valid UTF-8.' } });
    // An encoded surrogate (CESU-8) and a cut sequence are not UTF-8 either.
    for (const bad of [
      [0xed, 0xa0, 0x80],
      [0xe2, 0x82],
    ]) {
      const body = Buffer.concat([Buffer.from('{"title": "x'), Buffer.from(bad), Buffer.from('"}')]);
      expect((await sendBytes('POST', '/api/v3/workspaces', body, basic)).status).toBe(400);
    }
    expect(titles().length).toBe(before);
    // The same title in UTF-8 is taken as sent.
    const utf8 = await sendBytes('POST', '/api/v3/workspaces', Buffer.from('{"title": "Café 😀"}'), basic);
    expect(utf8.status).toBe(201);
    expect(titles()).toContain('Café 😀');
  });

  it('are malformed_request in the code envelope (v3.1 recipes)', async () => {
    const body = Buffer.concat([Buffer.from('{"template_id": 1, "title": "'), Buffer.from([0xff]), Buffer.from('"}')]);
    const r = await sendBytes('POST', '/api/v3.1/automated-recipes/', body, `Bearer ${token}`);
    expect(r).toEqual({
      status: 400,
      body: { code: 'malformed_request', message: 'The request body is not valid UTF-8.', details: {} },
    });
  });
});

describe('strings holding a lone surrogate', () => {
  const MESSAGE =
    'Holds a lone surrogate (an unpaired \\ud800-\\udfff escape), which is no character; send text as UTF-8.';

  it('are validation_error naming the field, in {detail} (v3)', async () => {
    const before = titles().length;
    const r = await http(sb, 'POST', '/api/v3/workspaces', { basic: true, rawBody: '{"title": "Caf\\ud800"}' });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ detail: 'The request body is invalid.', title: [MESSAGE] });
    const low = await http(sb, 'POST', '/api/v3/workspaces', { basic: true, rawBody: '{"title": "\\udc00x"}' });
    expect(low.body.title).toEqual([MESSAGE]);
    expect(titles().length).toBe(before);
    // A pair written as escapes is one character, taken as sent.
    const pair = await http(sb, 'POST', '/api/v3/workspaces', { basic: true, rawBody: '{"title": "\\ud83d\\ude00!"}' });
    expect(pair.status).toBe(201);
    expect(titles()).toContain('😀!');
  });

  it('are validation_error naming the field, in the code envelope (v3.1 recipes)', async () => {
    const r = await http(sb, 'POST', '/api/v3.1/automated-recipes/', {
      token,
      rawBody: '{"template_id": 1, "title": "Report \\udfff"}',
    });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      code: 'validation_error',
      message: 'The request body is invalid.',
      details: { fields: [{ field: 'title', code: 'invalid', message: MESSAGE }] },
    });
  });

  it('name the object holding a key with one, and the place in a list (unit)', () => {
    const fieldOf = (value: unknown) => {
      try {
        checkWellFormed(value);
        return undefined;
      } catch (err: any) {
        return err.details.fields[0].field;
      }
    };
    expect(fieldOf({ settings: { filters: [{ ok: 'a' }, { ['k\ud800']: 1 }] } })).toBe('settings.filters[1]');
    expect(fieldOf({ list: ['a', 'b\udbff'] })).toBe('list[1]');
    expect(fieldOf({ fine: '\ud83d\ude00', also: ['\u00e9'] })).toBeUndefined();
  });

  it('the OpenAPI document says so where a body is described', async () => {
    const doc = (await http(sb, 'GET', '/_sandbox/openapi.json')).body;
    const description = doc.paths['/api/v3/workspaces'].post.requestBody.description as string;
    expect(description).toContain('not valid UTF-8');
    expect(description).toContain('lone surrogate');
  });
});
