import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { control, http, sandbox, tokenFor } from '../helpers.js';
import { V3, V31, createRecipe, resetRecipes } from '../fixtures/recipes.js';

let sb: Sandbox;
let token: string;
beforeAll(async () => {
  sb = await sandbox({ buildSeconds: 0 });
  token = await tokenFor(sb, 101);
});
afterAll(() => sb.close());
beforeEach(async () => {
  resetRecipes(sb);
  await control(sb, 'PATCH', '/agency', { recipe_pipeline: true });
});

describe('sandbox: recipe templates', () => {
  it('v3.1 lists templates with origin, categories, build_mode; search filters; blank search is refused', async () => {
    const all = await http(sb, 'GET', '/api/v3.1/automated-recipe-templates/', { token });
    expect(all.status).toBe(200);
    const first = all.body.results[0];
    expect(first).toMatchObject({
      id: 4001,
      origin: 'improvado',
      categories: ['Paid media'],
      build_mode: 'progressive',
    });
    expect(new Set(all.body.results.map((t: any) => t.build_mode))).toEqual(new Set(['progressive', 'atomic']));
    const found = await http(sb, 'GET', '/api/v3.1/automated-recipe-templates/?search=FUNNEL', { token });
    expect(found.body.results.map((t: any) => t.id)).toEqual([4003]);
    const blank = await http(sb, 'GET', '/api/v3.1/automated-recipe-templates/?search=%20', { token });
    expect(blank.status).toBe(400);
    expect(blank.body).toEqual({
      code: 'invalid_query_parameter',
      message: expect.any(String),
      details: { parameter: 'search', allowed_values: [] },
    });
  });

  it('v3.1 detail has output_columns as a list, empty when none; unknown id is 404 not_found', async () => {
    const t = await http(sb, 'GET', '/api/v3.1/automated-recipe-templates/4001/', { token });
    expect(t.body.output_columns[0]).toEqual({ name: 'date', type: 'date' });
    expect(t.body.output_columns.map((c: any) => c.name)).not.toContain('__insert_date');
    const none = await http(sb, 'GET', '/api/v3.1/automated-recipe-templates/4003/', { token });
    expect(none.body.output_columns).toEqual([]);
    const missing = await http(sb, 'GET', '/api/v3.1/automated-recipe-templates/999/', { token });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('not_found');
  });

  it('v3 detail has level, nested children, dependencies_count and null output_columns', async () => {
    const t = await http(sb, 'GET', '/api/v3/automated-recipe-templates/4004/', { token });
    expect(t.body).toMatchObject({ id: 4004, level: 2, dependencies_count: 1 });
    expect(t.body.children).toEqual([
      expect.objectContaining({ id: 4005, level: 1, children: [], dependencies_count: 0 }),
    ]);
    const none = await http(sb, 'GET', '/api/v3/automated-recipe-templates/4003/', { token });
    expect(none.body.output_columns).toBeNull();
    expect(none.body).not.toHaveProperty('origin');
    const missing = await http(sb, 'GET', '/api/v3/automated-recipe-templates/999/', { token });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ detail: expect.any(String) });
  });

  it('answers 301 to the slash form, 401 without a token, 403 when the agency has the pipeline off', async () => {
    const slashless = await http(sb, 'GET', '/api/v3.1/automated-recipe-templates', { token });
    expect(slashless.status).toBe(301);
    expect(slashless.headers.get('location')).toBe('/api/v3.1/automated-recipe-templates/');
    const anonymous = await http(sb, 'GET', '/api/v3.1/automated-recipe-templates/');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe('authentication_failed');
    await control(sb, 'PATCH', '/agency', { recipe_pipeline: false });
    const off = await http(sb, 'POST', V31, { token, body: { template_id: 4001, title: 'x' } });
    expect(off.status).toBe(403);
    expect(off.body).toMatchObject({ code: 'permission_denied', details: {} });
    const offV3 = await http(sb, 'GET', V3, { token });
    expect(offV3.status).toBe(403);
    expect(offV3.body).toEqual({ detail: expect.any(String) });
  });
});

describe('sandbox: create (v3.1)', () => {
  it('answers 201 with the full recipe; the id is beyond 2^53 and exact', async () => {
    const r = await http(sb, 'POST', V31, { token, body: { template_id: 4001, title: 'Paid media' } });
    expect(r.status).toBe(201);
    const digits = /"recipe_id":(\d+)[,}]/.exec(r.text)?.[1];
    expect(digits).toMatch(/^\d{16,}$/);
    expect(BigInt(digits!)).toBeGreaterThan(2n ** 53n);
    expect(r.body).toMatchObject({
      template_id: 4001,
      title: 'Paid media',
      state: null,
      error: null,
      last_build_at: null,
      degraded: false,
      not_delivered_reasons: [],
      sources: [],
      data_sources: [],
      connections: [],
      sync_from_date: null,
    });
    const table = sb.store.state.data_tables.find((d) => d.id === r.body.datatable_id)!;
    expect(table.sql_name).toBe('paid_media_performance');
  });

  it('refuses an unknown template (400 template_not_found) and a non-deployable one (409)', async () => {
    const unknown = await http(sb, 'POST', V31, { token, body: { template_id: 999, title: 'x' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ code: 'template_not_found', details: { template_id: 999 } });
    const draft = await http(sb, 'POST', V31, { token, body: { template_id: 4007, title: 'x' } });
    expect(draft.status).toBe(409);
    expect(draft.body).toMatchObject({ code: 'template_not_deployable', details: { template_id: 4007 } });
  });

  it('one recipe per template per workspace: 409 recipe_already_exists with the ids, possibly empty', async () => {
    const id = await createRecipe(sb, token, 4001);
    const again = await http(sb, 'POST', V31, { token, body: { template_id: 4001, title: 'again' } });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('recipe_already_exists');
    expect(again.body.details.existing_recipe_ids.map(String)).toEqual([id]);
    await http(sb, 'POST', '/_sandbox/recipes/faults', { body: { existing_ids_lost: 1 } });
    const raced = await http(sb, 'POST', V31, { token, body: { template_id: 4001, title: 'again' } });
    expect(raced.body.details.existing_recipe_ids).toEqual([]);
    // Equal names in another workspace are normal.
    const other = await http(sb, 'POST', V31, {
      token: await tokenFor(sb, 102),
      body: { template_id: 4001, title: 'x' },
    });
    expect(other.status).toBe(201);
  });

  it('409 view_name_taken when another recipe holds the output name; v3 answers 400 with conflicting_recipe_ids', async () => {
    const holder = await createRecipe(sb, token, 4001);
    const r = await http(sb, 'POST', V31, { token, body: { template_id: 4006, title: 'copy' } });
    expect(r.status).toBe(409);
    expect(r.body.code).toBe('view_name_taken');
    expect(r.body.details.view_name).toBe('paid_media_performance');
    expect(r.body.details.conflicting_recipe_ids.map(String)).toEqual([holder]);
    const v3 = await http(sb, 'POST', V3, { token, body: { template_id: 4006, title: 'copy' } });
    expect(v3.status).toBe(400);
    expect(v3.body.detail).toEqual(expect.any(String));
    expect(v3.body.conflicting_recipe_ids.map(String)).toEqual([holder]);
  });

  it('409 no_active_destination and destination_not_supported', async () => {
    const dc = sb.store.state.destination_connections.find((d) => d.workspace_id === 101)!;
    try {
      dc.status = 'paused';
      const none = await http(sb, 'POST', V31, { token, body: { template_id: 4001, title: 'x' } });
      expect(none.status).toBe(409);
      expect(none.body).toMatchObject({ code: 'no_active_destination', details: {} });
      dc.status = 'active';
      dc.destination_name = 'sftp';
      const unsupported = await http(sb, 'POST', V31, { token, body: { template_id: 4001, title: 'x' } });
      expect(unsupported.status).toBe(409);
      expect(unsupported.body.code).toBe('destination_not_supported');
    } finally {
      dc.status = 'active';
      dc.destination_name = 's3';
    }
    expect(sb.store.state.recipes).toHaveLength(0);
  });

  it('503 data_table_reservation_failed with Retry-After creates nothing', async () => {
    await http(sb, 'POST', '/_sandbox/recipes/faults', { body: { data_table_reservation_failed: 1 } });
    const tables = sb.store.state.data_tables.length;
    const r = await http(sb, 'POST', V31, { token, body: { template_id: 4001, title: 'x' } });
    expect(r.status).toBe(503);
    expect(r.headers.get('retry-after')).toBe('0');
    expect(r.body).toMatchObject({ code: 'data_table_reservation_failed', details: {} });
    expect(sb.store.state.recipes).toHaveLength(0);
    expect(sb.store.state.data_tables).toHaveLength(tables);
  });

  it('validation_error with field paths; malformed JSON is malformed_request', async () => {
    const r = await http(sb, 'POST', V31, { token, body: { template_id: 'x', title: 'a'.repeat(256) } });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('validation_error');
    expect(r.body.details.fields).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: 'template_id' }),
        expect.objectContaining({ field: 'title', code: 'max_length' }),
      ]),
    );
    const bad = await http(sb, 'POST', V31, { token, rawBody: '{nope' });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('malformed_request');
  });
});

describe('sandbox: list and detail (v3.1)', () => {
  it('lists with datatable_id, filters by template_id and state; unknown state is 400 with allowed_values', async () => {
    const a = await createRecipe(sb, token, 4001);
    await createRecipe(sb, token, 4002);
    const all = await http(sb, 'GET', V31, { token });
    expect(all.body.count).toBe(2);
    expect(all.body.results[0]).toHaveProperty('datatable_id');
    const byTemplate = await http(sb, 'GET', `${V31}?template_id=4001`, { token });
    expect(byTemplate.body.results.map((r: any) => String(r.recipe_id))).toEqual([a]);
    const ready = await http(sb, 'GET', `${V31}?state=ready_to_work`, { token });
    expect(ready.body.results).toEqual([]);
    const unknown = await http(sb, 'GET', `${V31}?state=Ready%20to%20work`, { token });
    expect(unknown.status).toBe(400);
    expect(unknown.body.details).toEqual({
      parameter: 'state',
      allowed_values: ['extracting_data', 'building_dependencies', 'ready_to_work', 'failed'],
    });
    const badTemplate = await http(sb, 'GET', `${V31}?template_id=abc`, { token });
    expect(badTemplate.body).toMatchObject({
      code: 'invalid_query_parameter',
      details: { parameter: 'template_id', allowed_values: [] },
    });
  });

  it('paging: page_size above 100 or a page past the end is 400 invalid_query_parameter', async () => {
    await createRecipe(sb, token, 4001);
    await createRecipe(sb, token, 4002);
    const page = await http(sb, 'GET', `${V31}?page_size=1&page=2`, { token });
    expect(page.body.results).toHaveLength(1);
    expect(page.body.previous).toMatch(/^http:\/\/.*\/api\/v3\.1\/automated-recipes\/\?/);
    const big = await http(sb, 'GET', `${V31}?page_size=101`, { token });
    expect(big.status).toBe(400);
    expect(big.body.code).toBe('invalid_query_parameter');
    const past = await http(sb, 'GET', `${V31}?page=3&page_size=1`, { token });
    expect(past.status).toBe(400);
    expect(past.body.details.parameter).toBe('page');
  });

  it("another workspace's recipe is 404 (v3.1) and 403 (v3); an unknown id is 404", async () => {
    const id = await createRecipe(sb, token, 4001);
    const other = await tokenFor(sb, 102);
    const v31 = await http(sb, 'GET', `${V31}${id}/`, { token: other });
    expect(v31.status).toBe(404);
    expect(v31.body).toMatchObject({ code: 'not_found', details: {} });
    const v3 = await http(sb, 'GET', `${V3}${id}/`, { token: other });
    expect(v3.status).toBe(403);
    expect(v3.body).toEqual({ detail: expect.any(String) });
    const unknown = await http(sb, 'GET', `${V31}123/`, { token });
    expect(unknown.status).toBe(404);
    const nonsense = await http(sb, 'GET', `${V31}${id}/nonsense/`, { token });
    expect(nonsense.body.code).toBe('not_found');
    const slashless = await http(sb, 'POST', `${V31}${id}/build`, { token });
    expect(slashless.status).toBe(301);
    expect(sb.store.state.recipes[0]!.state).toBeNull();
  });

  it('405 method_not_allowed on a known path', async () => {
    const r = await http(sb, 'PATCH', V31, { token, body: {} });
    expect(r.status).toBe(405);
    expect(r.body.code).toBe('method_not_allowed');
  });
});
