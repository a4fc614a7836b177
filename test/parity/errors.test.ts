import { beforeAll, describe, expect, test } from 'vitest';
import {
  call,
  expectCodeEnvelope,
  expectDetailEnvelope,
  expectStatus,
  readWorkspace,
  tokenFor,
  type Answer,
} from './target.js';

/** Contract, Errors: the two shapes, status meaning, codes any operation can return, validation errors. */
describe('errors', () => {
  let token: string;
  let workspace: number;
  beforeAll(async () => {
    workspace = await readWorkspace();
    token = await tokenFor(workspace);
  });
  const bearer = () => ({ bearer: token });

  test('every answer carries x-im-trace-id: 200, 301, 400, 401, 404, 405, 415 (Errors: every response carries the header)', async () => {
    const answers: Array<[string, Answer]> = [
      ['GET /api/v3/workspaces (200)', await call('GET', '/api/v3/workspaces', { auth: 'basic' })],
      ['GET /api/v3.1/automated-recipes/ (200)', await call('GET', '/api/v3.1/automated-recipes/', { auth: bearer() })],
      ['GET /api/v3.1/automated-recipes (301)', await call('GET', '/api/v3.1/automated-recipes', { auth: bearer() })],
      ['POST /api/v3/token {} (400)', await call('POST', '/api/v3/token', { auth: 'basic', json: {} })],
      ['GET /api/v3/workspaces (401)', await call('GET', '/api/v3/workspaces')],
      [
        'GET /api/v3.1/automated-recipes/1/ (404)',
        await call('GET', '/api/v3.1/automated-recipes/1/', { auth: bearer() }),
      ],
      [
        'DELETE /api/v3.1/automated-recipe-templates/ (405)',
        await call('DELETE', '/api/v3.1/automated-recipe-templates/', { auth: bearer() }),
      ],
      [
        'POST text/plain (415)',
        await call('POST', '/api/v3.1/automated-recipes/', { auth: bearer(), raw: 'x', contentType: 'text/plain' }),
      ],
      ['GET /api/v3/roles/permissions (200)', await call('GET', '/api/v3/roles/permissions', { auth: 'basic' })],
    ];
    const missing = answers.filter(([, res]) => !res.header('x-im-trace-id')).map(([what]) => what);
    expect(missing).toEqual([]);
  });

  test('an unsupported method on a v3.1 recipe path answers 405 method_not_allowed (Errors: codes any operation can return)', async () => {
    const res = await call('DELETE', '/api/v3.1/automated-recipe-templates/', { auth: bearer() });
    expectCodeEnvelope(res, 405, 'method_not_allowed');
    expect(res.body.details).toEqual({});
  });

  test('an unsupported method on a v3 path answers 405 {detail} (Errors: Two shapes 2)', async () => {
    expectDetailEnvelope(await call('DELETE', '/api/v3/automated-recipe-templates/', { auth: bearer() }), 405);
  });

  test('a recipe that does not exist answers 404 not_found with details {} in v3.1 (Errors: codes any operation can return)', async () => {
    const res = await call('GET', '/api/v3.1/automated-recipes/1/', { auth: bearer() });
    expectCodeEnvelope(res, 404, 'not_found');
    expect(res.body.details).toEqual({});
  });

  test('a template that does not exist answers 404 not_found in v3.1 (Errors: not_found)', async () => {
    expectCodeEnvelope(
      await call('GET', '/api/v3.1/automated-recipe-templates/2147483646/', { auth: bearer() }),
      404,
      'not_found',
    );
  });

  test('an unknown path under the recipes prefix answers 404 not_found in the code envelope (Errors: not_found)', async () => {
    expectCodeEnvelope(
      await call('GET', '/api/v3.1/automated-recipes/1/parity-unknown/', { auth: bearer() }),
      404,
      'not_found',
    );
  });

  test('a recipe that does not exist answers 404 {detail} in v3 (Errors: Two shapes 2)', async () => {
    expectDetailEnvelope(await call('GET', '/api/v3/automated-recipes/1/', { auth: bearer() }), 404);
  });

  test('a malformed URL under the v3.1 recipes prefix answers in the code envelope (Errors: Two shapes 1, every error)', async () => {
    const res = await call('GET', '/api/v3.1/automated-recipes/%E0%A4%A/', { auth: bearer() });
    expect([400, 404], res.text).toContain(res.status);
    expectCodeEnvelope(res, res.status, res.status === 400 ? 'bad_request' : 'not_found');
    expect(res.header('x-im-trace-id')).toBeTruthy();
  });

  test('a body that is not JSON answers 400 malformed_request with details {} (Errors: codes any operation can return)', async () => {
    const res = await call('POST', '/api/v3.1/automated-recipes/', { auth: bearer(), raw: '{"template_id": ' });
    expectCodeEnvelope(res, 400, 'malformed_request');
    expect(res.body.details).toEqual({});
  });

  test('a text/plain body answers 415 bad_request (Errors: bad_request is the catch-all, for example 415)', async () => {
    const res = await call('POST', '/api/v3.1/automated-recipes/', {
      auth: bearer(),
      raw: 'template_id=1',
      contentType: 'text/plain',
    });
    expectCodeEnvelope(res, 415, 'bad_request');
    expect(res.body.details).toEqual({});
  });

  test('missing fields answer 400 validation_error with field code required (Validation errors)', async () => {
    const res = await call('POST', '/api/v3.1/automated-recipes/', { auth: bearer(), json: {} });
    expectCodeEnvelope(res, 400, 'validation_error');
    const fields = res.body.details.fields as Array<{ field: string; code: string; message: string }>;
    expect(fields).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: 'template_id', code: 'required' }),
        expect.objectContaining({ field: 'title', code: 'required' }),
      ]),
    );
    for (const f of fields) expect(typeof f.message).toBe('string');
  });

  test('a field of the wrong type answers 400 validation_error with field code invalid, not required (Validation errors)', async () => {
    const res = await call('POST', '/api/v3.1/automated-recipes/', {
      auth: bearer(),
      json: { template_id: 'not-a-number', title: 'Parity check' },
    });
    expectCodeEnvelope(res, 400, 'validation_error');
    expect(res.body.details.fields).toEqual([expect.objectContaining({ field: 'template_id', code: 'invalid' })]);
  });

  test('a title beyond 255 characters answers 400 validation_error naming title (Validation errors, Limits)', async () => {
    // template_id is wrong too, so that nothing can be created whatever the service does with the title.
    const res = await call('POST', '/api/v3.1/automated-recipes/', {
      auth: bearer(),
      json: { template_id: 'x', title: 't'.repeat(256) },
    });
    expectCodeEnvelope(res, 400, 'validation_error');
    expect(res.body.details.fields.map((f: { field: string }) => f.field)).toContain('title');
  });

  test('a template the agency does not have answers 400 template_not_found with {template_id} (Codes of specific operations)', async () => {
    const res = await call('POST', '/api/v3.1/automated-recipes/', {
      auth: bearer(),
      json: { template_id: 2147483646, title: 'Parity check' },
    });
    expectCodeEnvelope(res, 400, 'template_not_found');
    expect(Number(res.body.details.template_id)).toBe(2147483646);
  });

  test('an unknown state filter answers 400 invalid_query_parameter with the allowed values (States and transitions; Errors)', async () => {
    const res = await call('GET', '/api/v3.1/automated-recipes/?state=Ready%20to%20work', { auth: bearer() });
    expectCodeEnvelope(res, 400, 'invalid_query_parameter');
    expect(res.body.details.parameter).toBe('state');
    expect([...res.body.details.allowed_values].sort()).toEqual([
      'building_dependencies',
      'extracting_data',
      'failed',
      'ready_to_work',
    ]);
  });

  test('a blank template search answers 400 invalid_query_parameter (Automated recipes v3.1: blank value is rejected)', async () => {
    expectCodeEnvelope(
      await call('GET', '/api/v3.1/automated-recipe-templates/?search=%20', { auth: bearer() }),
      400,
      'invalid_query_parameter',
    );
  });

  test('operations outside the recipe group answer {detail} (Errors: Two shapes 2)', async () => {
    expectDetailEnvelope(await call('POST', '/api/v3/token', { auth: 'basic', json: {} }), 400);
    expectDetailEnvelope(await call('GET', '/api/v3/workspaces/2147483646', { auth: 'basic' }), 404);
  });

  test('a workspace the agency does not have answers 404 on dashboards (workspaces.dashboards; Status meaning)', async () => {
    expectStatus(await call('GET', '/api/v3/workspaces/2147483646/dashboards', { auth: 'basic' }), 404);
  });

  test('the v3.1 accounts list of an unknown connection answers 404 not_found (v3.1 accounts rule 4, Errors: Two shapes 1)', async () => {
    expectCodeEnvelope(
      await call('GET', '/api/v3.1/connections/2147483646/accounts/', { auth: bearer() }),
      404,
      'not_found',
    );
  });
});
