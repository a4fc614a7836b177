import { beforeAll, describe, expect, test } from 'vitest';
import { unobservable, writeCheck } from './checks.js';
import {
  SYSTEM_FIELDS,
  allItems,
  baseUrl,
  call,
  expectStatus,
  idText,
  readWorkspace,
  relative,
  tokenFor,
  type Answer,
} from './target.js';
import { DATASOURCE } from './vendor-names.js';

const FORMATS = ['string', 'float', 'integer', 'iso_8601_date', 'currency', 'percent', 'duration', 'url', 'image_url'];

/** The iframe URL: the key carrying it is not shown, so the first string value that is a URL. */
function iframeUrl(res: Answer): URL | undefined {
  const values = typeof res.body === 'string' ? [res.body] : Object.values(res.body ?? {});
  for (const v of values) {
    if (typeof v !== 'string') continue;
    try {
      return new URL(v);
    } catch {
      // not this one
    }
  }
  return undefined;
}

/** Contract: workspaces, iframe URL, data tables, extraction templates, field objects, loads. */
describe('workspaces and data', () => {
  let workspace: number;
  let token: string;
  let datasources: any[] = [];
  beforeAll(async () => {
    workspace = await readWorkspace();
    token = await tokenFor(workspace);
    datasources = await allItems('/api/v3/datasources', { bearer: token });
  });
  const auth = () => ({ auth: { bearer: token } });

  test('workspaces read with Basic show id (integer) and title (workspaces.list)', async () => {
    const res = await call('GET', `/api/v3/workspaces/${workspace}`, { auth: 'basic' });
    expectStatus(res, 200);
    expect(Number.isInteger(Number(idText(res.body.id)))).toBe(true);
    expect(typeof res.body.title).toBe('string');
  });

  test('the agency recipe list answers 200 with Basic (agencyRecipes.list)', async () => {
    expectStatus(await call('GET', '/api/v3/recipes/', { auth: 'basic' }), 200);
  });

  /** The iframe URL the service gives for connecting `name` in the workspace. */
  async function iframeUrlFor(name: string): Promise<URL> {
    const res = await call('POST', '/api/v3/get_iframe_url', {
      auth: 'basic',
      json: { workspace_id: workspace, type: 'datasource', name },
    });
    expectStatus(res, 200);
    const url = iframeUrl(res);
    expect(url, res.text).toBeDefined();
    return url!;
  }

  test('the iframe URL has the form {base_url}/api/v3/iframe/ with code, type and name (iframe.url)', async (ctx) => {
    const name = datasources[0]?.[DATASOURCE.name];
    if (!name) return ctx.skip('no data source');
    const url = await iframeUrlFor(name);
    expect(url.toString().startsWith(`${baseUrl}/api/v3/iframe/`)).toBe(true);
    expect(url.searchParams.get('code')).toBeTruthy();
    expect(url.searchParams.get('type')).toBe('datasource');
    expect(url.searchParams.get('name')).toBe(name);
  });

  test('the iframe URL opens: a GET of it answers 200 (iframe.url; iframe.page)', async (ctx) => {
    const name = datasources[0]?.[DATASOURCE.name];
    if (!name) return ctx.skip('no data source');
    const url = await iframeUrlFor(name);
    // The page is for a person in a browser: only that it opens, without credentials, is checked.
    const page = await call('GET', relative(url.toString()), { headers: { accept: 'text/html' } });
    expectStatus(page, 200);
  });

  test('a forged Host header is not reflected into the iframe URL (iframe.url)', async (ctx) => {
    const res = await call('POST', '/api/v3/get_iframe_url', {
      auth: 'basic',
      json: { workspace_id: workspace },
      headers: { host: 'parity-forged.invalid' },
    });
    if (res.status !== 200) return ctx.skip(`the target refuses a foreign Host header (${res.status})`);
    const url = iframeUrl(res);
    expect(url!.host).not.toBe('parity-forged.invalid');
    expect(url!.toString().startsWith(`${baseUrl}/api/v3/iframe/`)).toBe(true);
  });

  test('the iframe URL needs workspace_id (400) and Basic credentials (401) (iframe.url; Authentication)', async () => {
    expectStatus(await call('POST', '/api/v3/get_iframe_url', { auth: 'basic', json: {} }), 400);
    expectStatus(await call('POST', '/api/v3/get_iframe_url', { json: { workspace_id: workspace } }), 401);
  });

  test('data table detail lists the system fields account_id, account_name, __insert_date and gives sql_name (tables.get)', async (ctx) => {
    const tables = await allItems('/api/v3/data-tables', { bearer: token });
    if (tables.length === 0) return ctx.skip('no data table in the workspace');
    const res = await call('GET', `/api/v3/data-tables/${idText(tables[0].id)}`, auth());
    expectStatus(res, 200);
    expect(typeof res.body.sql_name).toBe('string');
    const names = res.body.fields.map((f: { name: string }) => f.name);
    expect(names).toEqual(expect.arrayContaining(SYSTEM_FIELDS));
  });

  test('extraction templates list provider fields only, no system fields (What the service does)', async (ctx) => {
    const offenders: string[] = [];
    let seen = 0;
    for (const ds of datasources.slice(0, 4)) {
      const list = await call(
        'GET',
        `/api/v3/datasources/${encodeURIComponent(ds[DATASOURCE.name])}/extract-templates`,
        auth(),
      );
      const items = Array.isArray(list.body) ? list.body : (list.body?.results ?? []);
      for (const t of items.slice(0, 3)) {
        const detail = await call(
          'GET',
          `/api/v3/datasources/${encodeURIComponent(ds[DATASOURCE.name])}/extract-templates/${idText(t.id)}`,
          auth(),
        );
        if (detail.status !== 200) continue;
        seen++;
        for (const f of detail.body.fields ?? [])
          if (SYSTEM_FIELDS.includes(f.name))
            offenders.push(`${ds[DATASOURCE.name]} template ${idText(t.id)}: ${f.name}`);
      }
    }
    if (seen === 0) return ctx.skip('no extraction template to read');
    expect(offenders).toEqual([]);
  });

  test("field objects carry name, a format from the contract's set, user_type and boolean is_dynamic (Field object)", async (ctx) => {
    const ds = datasources[0]?.[DATASOURCE.name];
    if (!ds) return ctx.skip('no data source');
    const list = await call('GET', `/api/v3/datasources/${encodeURIComponent(ds)}/extract-templates`, auth());
    const items = Array.isArray(list.body) ? list.body : (list.body?.results ?? []);
    if (items.length === 0) return ctx.skip('no extraction template');
    const detail = await call(
      'GET',
      `/api/v3/datasources/${encodeURIComponent(ds)}/extract-templates/${idText(items[0].id)}`,
      auth(),
    );
    expectStatus(detail, 200);
    expect(typeof detail.body.sql_name).toBe('string');
    for (const f of detail.body.fields) {
      expect(typeof f.name).toBe('string');
      expect(FORMATS).toContain(f.format);
      expect(f).toHaveProperty('user_type');
      expect(typeof f.is_dynamic).toBe('boolean');
    }
  });

  test('the compact extraction template by id carries id, datasource_name and boolean is_wide_template (Extraction template)', async (ctx) => {
    const ds = datasources[0]?.[DATASOURCE.name];
    if (!ds) return ctx.skip('no data source');
    const list = await call('GET', `/api/v3/datasources/${encodeURIComponent(ds)}/extract-templates`, auth());
    const items = Array.isArray(list.body) ? list.body : (list.body?.results ?? []);
    if (items.length === 0) return ctx.skip('no extraction template');
    const res = await call('GET', `/api/v3/extract-template/${idText(items[0].id)}/`, auth());
    expectStatus(res, 200);
    expect(idText(res.body.id)).toBe(idText(items[0].id));
    expect(res.body.datasource_name).toBe(ds);
    expect(typeof res.body.is_wide_template).toBe('boolean');
  });

  unobservable(
    'creating an extraction template needs the permission EXTRACT.CREATE (extractTemplates.create; Extraction templates, create)',
    'needs the credentials of a user whose role lacks EXTRACT.CREATE; the agency chief has every permission',
  );

  writeCheck(
    'a load runs with date_from alone: date_from and date_to are each optional (loads.run; Loads, PUT run)',
    async (ctx) => {
      const loads = await allItems('/api/v3/loads', { bearer: token });
      if (loads.length === 0) return ctx.skip('no load in the scratch workspace');
      const id = idText(loads[0].id);
      let res = await call('PUT', `/api/v3/loads/${id}/run`, { ...auth(), json: { date_from: '2024-01-01' } });
      // A run already going is a state conflict, not a refusal of the body: wait for it once.
      for (let i = 0; res.status === 409 && i < 20; i++) {
        await new Promise((r) => setTimeout(r, 500));
        res = await call('PUT', `/api/v3/loads/${id}/run`, { ...auth(), json: { date_from: '2024-01-01' } });
      }
      expectStatus(res, 200, 202, 204);
    },
  );
});
