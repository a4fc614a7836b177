import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { http, sandbox } from '../helpers.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox();
});
afterAll(() => sb.close());

/** Every operation of the area is a workspace operation: no token (or a Basic credential) is 401. */
const OPERATIONS: Array<[string, string]> = [
  ['GET', '/api/v3/datasources/google_ads/extract-templates'],
  ['POST', '/api/v3/datasources/google_ads/extract-templates'],
  ['GET', '/api/v3/datasources/google_ads/extract-templates/301'],
  ['GET', '/api/v3/extract-template/301/'],
  ['POST', '/api/v3/extract-template/301/preview/'],
  ['POST', '/api/v3/extract-template/301/validation/'],
  ['POST', '/api/v3/datasources/google_ads/custom_setting_options/'],
  ['GET', '/api/v3/extracts'],
  ['POST', '/api/v3.1/extracts/'],
  ['GET', '/api/v3/extracts/1'],
  ['PUT', '/api/v3/extracts/1'],
  ['PATCH', '/api/v3/extracts/1'],
  ['POST', '/api/v3/extracts/1/run'],
  ['POST', '/api/v3/extracts/1/pause'],
  ['POST', '/api/v3/extracts/1/unpause'],
  ['POST', '/api/v3/extracts/migrate-wide'],
  ['GET', '/api/v3/destinations'],
  ['GET', '/api/v3/destinations/s3/connections'],
  ['POST', '/api/v3/destinations/s3/connections'],
  ['GET', '/api/v3/destinations/s3/connections/1'],
  ['PATCH', '/api/v3/destinations/s3/connections/1'],
  ['PUT', '/api/v3/destinations/s3/connections/1'],
  ['PUT', '/api/v3/destinations/s3/connections/1/recheck'],
  ['GET', '/api/v3/data-tables'],
  ['GET', '/api/v3/data-tables/1'],
  ['PUT', '/api/v3/data-tables/1'],
  ['GET', '/api/v3/loads'],
  ['POST', '/api/v3/loads'],
  ['GET', '/api/v3/loads/1'],
  ['PUT', '/api/v3/loads/1'],
  ['DELETE', '/api/v3/loads/1'],
  ['PUT', '/api/v3/loads/1/pause'],
  ['PUT', '/api/v3/loads/1/unpause'],
  ['PUT', '/api/v3/loads/1/run'],
];

it.each(OPERATIONS)('%s %s needs a workspace token (401 with {detail})', async (method, path) => {
  const none = await http(sb, method, path, method === 'GET' || method === 'DELETE' ? {} : { body: {} });
  expect(none.status).toBe(401);
  expect(typeof none.body.detail).toBe('string');
  expect(none.headers.get('x-im-trace-id')).toBeTruthy();
  const basic = await http(sb, method, path, {
    basic: true,
    ...(method === 'GET' || method === 'DELETE' ? {} : { body: {} }),
  });
  expect(basic.status).toBe(401);
});
