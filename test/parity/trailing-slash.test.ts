import { beforeAll, describe, expect, test } from 'vitest';
import { call, readWorkspace, tokenFor } from './target.js';
import { DATASOURCE } from './vendor-names.js';

/**
 * Contract, What the service does: recipe paths end with a slash; the slashless form answers
 * 301, and a client that follows it turns a POST into a GET. The checks never follow redirects.
 */
describe('trailing slash', () => {
  let token: string;
  beforeAll(async () => {
    token = await tokenFor(await readWorkspace());
  });

  const expect301 = async (method: string, path: string, json?: unknown) => {
    const res = await call(method, path, { auth: { bearer: token }, ...(json === undefined ? {} : { json }) });
    expect(res.status, `${method} ${path}: ${res.text.slice(0, 200)}`).toBe(301);
    const location = res.header('location') ?? '';
    const [p, q] = path.split('?');
    expect(new URL(location, 'http://x').pathname.endsWith(`${p}/`)).toBe(true);
    if (q) expect(location.endsWith(`?${q}`)).toBe(true);
  };

  test('GET /api/v3.1/automated-recipes without the slash answers 301 to the slashed path, query kept (What the service does)', async () => {
    await expect301('GET', '/api/v3.1/automated-recipes?page=1');
  });

  // The body is empty on purpose: were the path served instead of redirected, nothing could be created.
  test('POST /api/v3.1/automated-recipes without the slash answers 301, not a recipe (What the service does)', async () => {
    await expect301('POST', '/api/v3.1/automated-recipes', {});
  });

  test('POST /api/v3/automated-recipes without the slash answers 301 on v3 too (Versioning 2)', async () => {
    await expect301('POST', '/api/v3/automated-recipes', {});
  });

  test('GET /api/v3.1/automated-recipe-templates without the slash answers 301 (Automated recipes v3.1: all paths end with a slash)', async () => {
    await expect301('GET', '/api/v3.1/automated-recipe-templates');
  });

  test('GET /api/v3/automated-recipes without the slash answers 301 on v3 too (Versioning 2)', async () => {
    await expect301('GET', '/api/v3/automated-recipes');
  });

  test('GET /api/v3/automated-recipe-templates without the slash answers 301 on v3 too (Versioning 2)', async () => {
    await expect301('GET', '/api/v3/automated-recipe-templates');
  });

  test('the v3.1 accounts list without the slash answers 301 (v3.1 accounts rule 1)', async () => {
    const sources = await call('GET', '/api/v3/datasources', { auth: { bearer: token } });
    let connection: unknown;
    for (const ds of sources.body.results) {
      connection = (
        await call('GET', `/api/v3/datasources/${encodeURIComponent(ds[DATASOURCE.name])}/connections`, {
          auth: { bearer: token },
        })
      ).body?.results?.[0]?.id;
      if (connection !== undefined) break;
    }
    await expect301('GET', `/api/v3.1/connections/${String(connection ?? 1)}/accounts`);
  });
});
