import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { advanceClock, control, http, sandbox, settleClock, tokenFor } from '../helpers.js';
import {
  V3,
  V31,
  builtRecipe,
  configuration,
  configure,
  createRecipe,
  demo,
  resetRecipes,
  waitBuilt,
} from '../fixtures/recipes.js';

let sb: Sandbox;
let token: string;
beforeAll(async () => {
  // scale 2: a bulk connection of 200 accounts in workspace 101, for the 100-entry cap
  // Each build state lasts a minute of the sandbox's clock, which moves only when a test moves it.
  sb = await sandbox({ buildSeconds: 60, scale: 2 });
  token = await tokenFor(sb, 101);
});
afterAll(() => sb.close());
beforeEach(() => resetRecipes(sb));

const g = () => demo(sb, 101, 'google_ads');
const behave = (body: Record<string, unknown>) => http(sb, 'PATCH', '/_sandbox/recipes/extraction-behavior', { body });

describe('sandbox: build (v3.1)', () => {
  it('409 recipe_not_configured for build and resetup of a recipe never configured', async () => {
    const id = await createRecipe(sb, token, 4001);
    for (const op of ['build', 'resetup']) {
      const r = await http(sb, 'POST', `${V31}${id}/${op}/`, { token });
      expect(r.status).toBe(409);
      expect(r.body).toMatchObject({ code: 'recipe_not_configured', details: {} });
    }
  });

  it('202 with the recipe in extracting_data; a second build is 409 build_already_running; then building_dependencies and ready_to_work', async () => {
    const id = await createRecipe(sb, token, 4001);
    await configure(sb, token, id, configuration(sb, 101, { google_ads: g().accounts.slice(0, 2) }));
    const started = await http(sb, 'POST', `${V31}${id}/build/`, { token });
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({ state: 'extracting_data', error: null });
    expect(started.body.last_build_at).toEqual(expect.any(String));
    const again = await http(sb, 'POST', `${V31}${id}/build/`, { token });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'build_already_running', details: {} });
    const state = async () => (await http(sb, 'GET', `${V31}${id}/`, { token })).body;
    await advanceClock(sb, 59.999);
    expect((await state()).state).toBe('extracting_data');
    await advanceClock(sb, 0.001);
    expect((await state()).state).toBe('building_dependencies');
    await advanceClock(sb, 60);
    const recipe = await state();
    expect(recipe.state).toBe('ready_to_work');
    expect(recipe).toMatchObject({ degraded: false, error: null, not_delivered_reasons: [] });
    expect(recipe.sources).toEqual([
      { data_source: 'google_ads', status: 'delivered', not_delivered_count: 0, not_delivered: [], error: null },
    ]);
    const events = sb.store.state.events.map((e) => e.type);
    expect(events).toEqual(
      expect.arrayContaining([
        'transformation_started',
        'transformation_completed',
        'recipe_activated',
        'extraction_created',
      ]),
    );
    const activated = sb.store.state.events.find((e) => e.type === 'recipe_activated')!;
    expect(activated.shape).toBe('Recipe');
    expect(Object.values(activated.data).every((v) => typeof v === 'string')).toBe(true);
  });

  it('leaves out an extraction that never delivers: ready_to_work, degraded, reasons per source', async () => {
    const [a, b] = g().accounts;
    await behave({ account_id: b, behavior: 'never_delivers' });
    const { recipe } = await builtRecipe(sb, token, 101, 4001, { google_ads: [a!, b!] });
    expect(recipe.state).toBe('ready_to_work');
    expect(recipe.degraded).toBe(true);
    expect(recipe.not_delivered_reasons).toEqual(['timed_out']);
    expect(recipe.sources[0]).toMatchObject({
      status: 'partial',
      not_delivered_count: 1,
      not_delivered: [{ extraction_id: expect.any(Number), account_id: b, reason: 'timed_out' }],
    });
  });

  it('does not wait for an account disabled since configuration', async () => {
    const [a, b] = g().accounts;
    const id = await createRecipe(sb, token, 4001);
    await configure(sb, token, id, configuration(sb, 101, { google_ads: [a!, b!] }));
    const account = sb.store.state.accounts.find((x) => x.id === b)!;
    account.is_active = false;
    try {
      await http(sb, 'POST', `${V31}${id}/build/`, { token });
      const recipe = await waitBuilt(sb, token, id);
      expect(recipe.sources[0].not_delivered).toEqual([
        expect.objectContaining({ account_id: b, reason: 'account_disabled' }),
      ]);
    } finally {
      account.is_active = true;
    }
  });

  it('caps not_delivered at 100 entries per source and counts them all', async () => {
    const bulk = sb.store.state.connections.find((c) => c.title.includes('bulk'))!;
    const ids = sb.store.state.accounts
      .filter((a) => a.connection_id === bulk.id)
      .slice(0, 130)
      .map((a) => a.id);
    await Promise.all(
      ids
        .slice(1)
        .map((account_id) => control(sb, 'PATCH', '/recipes/extraction-behavior', { account_id, behavior: 'fails' })),
    );
    const id = await createRecipe(sb, token, 4001);
    await configure(sb, token, id, {
      data_sources: ['google_ads'],
      connections: [
        { connection_id: bulk.id, connection_data_source: 'google_ads', accounts: ids.map((x) => ({ id: x })) },
      ],
    });
    await http(sb, 'POST', `${V31}${id}/build/`, { token });
    const recipe = await waitBuilt(sb, token, id);
    expect(recipe.state).toBe('ready_to_work');
    expect(recipe.sources[0].not_delivered_count).toBe(129);
    expect(recipe.sources[0].not_delivered).toHaveLength(100);
    expect(recipe.not_delivered_reasons).toEqual(['extraction_failed']);
  });

  it('progressive: a data source that delivers nothing is dropped, the rest is built', async () => {
    await behave({ datasource_name: 'facebook_ads', behavior: 'fails' });
    const { recipe } = await builtRecipe(sb, token, 101, 4001, { google_ads: 'all', facebook_ads: 'all' });
    expect(recipe.state).toBe('ready_to_work');
    expect(recipe.degraded).toBe(true);
    const fb = recipe.sources.find((x: any) => x.data_source === 'facebook_ads');
    expect(fb.status).toBe('failed');
    expect(fb.error).toMatchObject({
      code: 'no_data_delivered',
      stage: 'extraction',
      data_source: 'facebook_ads',
      details: {},
    });
    expect(recipe.sources.find((x: any) => x.data_source === 'google_ads').error).toBeNull();
  });

  it('atomic: a data source that delivers nothing fails the recipe', async () => {
    await behave({ datasource_name: 'facebook_ads', behavior: 'fails' });
    const { recipe } = await builtRecipe(sb, token, 101, 4002, { google_ads: 'all', facebook_ads: 'all' });
    expect(recipe.state).toBe('failed');
    expect(recipe.error).toMatchObject({
      code: 'no_data_delivered',
      stage: 'extraction',
      data_source: 'facebook_ads',
      details: {},
      occurred_at: expect.any(String),
    });
  });

  it('progressive: every source failed is all_sources_failed', async () => {
    await behave({ datasource_name: 'facebook_ads', behavior: 'fails' });
    await behave({ datasource_name: 'google_ads', behavior: 'fails' });
    const { recipe } = await builtRecipe(sb, token, 101, 4001, { google_ads: 'all', facebook_ads: 'all' });
    expect(recipe.error).toMatchObject({
      code: 'all_sources_failed',
      stage: 'extraction',
      data_source: null,
      details: {},
    });
  });

  it('nothing delivered in time is no_data_delivered', async () => {
    await behave({ datasource_name: 'google_ads', behavior: 'never_delivers' });
    const { recipe } = await builtRecipe(sb, token, 101, 4001, { google_ads: 'all' });
    expect(recipe.state).toBe('failed');
    expect(recipe.error.code).toBe('no_data_delivered');
    expect(recipe.not_delivered_reasons).toEqual(['timed_out']);
  });

  it("fails when none delivered for one of the template's extraction templates; reused extractions with nothing running are not waited for", async () => {
    const ga = demo(sb, 101, 'google_analytics_4');
    const custom = sb.store.state.extract_templates.find((t) => t.sql_name === 'google_analytics_4_custom_report')!;
    const now = new Date().toISOString();
    for (const accountId of ga.accounts) {
      sb.store.state.extracts.push({
        id: sb.store.nextId('extract'),
        workspace_id: 101,
        connection_id: ga.connection,
        datasource_name: 'google_analytics_4',
        account_entity_id: accountId,
        account_embedded_id: accountId,
        template_id: custom.id,
        data_table_id: 1,
        title: 'old',
        is_paused: false,
        pause_reason: null,
        status: 'new',
        delivered: false,
        last_run_at: null,
        sync_historical_data: null,
        created_at: now,
        updated_at: now,
      } as any);
    }
    const { recipe } = await builtRecipe(sb, token, 101, 4003, { google_analytics_4: 'all' });
    expect(recipe.state).toBe('failed');
    expect(recipe.error.code).toBe('no_data_delivered');
    expect(recipe.sources[0].not_delivered.map((n: any) => n.reason)).toEqual(
      Array(ga.accounts.length).fill('not_running'),
    );
  });

  it('a forced SQL failure carries stage and details with every key', async () => {
    const id = await createRecipe(sb, token, 4001);
    await configure(sb, token, id, configuration(sb, 101, { google_ads: 'all' }));
    await http(sb, 'POST', '/_sandbox/recipes/build-errors', { body: { recipe_id: id, code: 'sql_type_mismatch' } });
    await http(sb, 'POST', `${V31}${id}/build/`, { token });
    const recipe = await waitBuilt(sb, token, id);
    expect(recipe.error).toEqual({
      code: 'sql_type_mismatch',
      message: expect.any(String),
      stage: 'transformation_build',
      data_source: null,
      occurred_at: expect.any(String),
      details: { column: 'spend', source_type: 'text', target_type: 'numeric', mixed_types: ['text', 'numeric'] },
    });
    // one-shot: the next build succeeds and clears the error
    await http(sb, 'POST', `${V31}${id}/build/`, { token });
    const rebuilt = await waitBuilt(sb, token, id);
    expect(rebuilt).toMatchObject({ state: 'ready_to_work', error: null });
  });

  it('view_name_taken: 409 on build when another holds the name; a build error when taken during the build', async () => {
    const id = await createRecipe(sb, token, 4001);
    await configure(sb, token, id, configuration(sb, 101, { google_ads: 'all' }));
    await http(sb, 'POST', `${V31}${id}/build/`, { token });
    const claim = await http(sb, 'POST', '/_sandbox/recipes/view-claims', {
      body: { workspace_id: 101, view_name: 'paid_media_performance' },
    });
    const during = await waitBuilt(sb, token, id);
    expect(during.error).toMatchObject({ code: 'view_name_taken', stage: 'final_build', details: {} });
    const refused = await http(sb, 'POST', `${V31}${id}/build/`, { token });
    expect(refused.status).toBe(409);
    expect(refused.body.details).toEqual({
      view_name: 'paid_media_performance',
      conflicting_recipe_ids: [expect.anything()],
    });
    expect(String(refused.body.details.conflicting_recipe_ids[0])).toBe(claim.body.recipe_id);
  });

  it('extractions that deliver late: the build fails, the tables appear later, and a second build is ready (deployment step 7)', async () => {
    // Held back until the test lets them run: what the first build and the first check see does
    // not depend on how fast this machine is.
    await behave({ datasource_name: 'google_ads', behavior: 'never_delivers' });
    const { id, recipe } = await builtRecipe(sb, token, 101, 4001, { google_ads: g().accounts.slice(0, 2) });
    expect(recipe.error.code).toBe('no_data_delivered');
    const early = await http(sb, 'GET', `${V31}${id}/extractions/`, { token });
    expect(early.body.all_tables_exist).toBe(false);
    const held = recipe.sources[0].not_delivered.map((n: any) => n.extraction_id);
    await behave({ datasource_name: 'google_ads', behavior: 'delivers' });
    for (const e of sb.store.state.extracts.filter((x) => held.includes(x.id))) sb.store.runExtract(e);
    await settleClock(sb);
    const check = await http(sb, 'GET', `${V31}${id}/extractions/`, { token });
    expect(check.body.all_tables_exist).toBe(true);
    expect(check.body.tables).toEqual([
      {
        data_source: 'google_ads',
        table: 'google_ads_campaign_performance',
        table_exists: true,
        extraction_ids: held,
      },
    ]);
    await http(sb, 'POST', `${V31}${id}/build/`, { token });
    expect(await waitBuilt(sb, token, id)).toMatchObject({ state: 'ready_to_work', degraded: false });
  });
});

describe('sandbox: resetup (v3.1)', () => {
  it('202 and a new build; 409 recipe_template_unavailable when the template can no longer be deployed', async () => {
    const { id } = await builtRecipe(sb, token, 101, 4001, { google_ads: 'all' });
    const r = await http(sb, 'POST', `${V31}${id}/resetup/`, { token });
    expect(r.status).toBe(202);
    expect(r.body.state).toBe('extracting_data');
    await waitBuilt(sb, token, id);
    await http(sb, 'PATCH', '/_sandbox/recipes/templates/4001', { body: { deployable: false } });
    try {
      const gone = await http(sb, 'POST', `${V31}${id}/resetup/`, { token });
      expect(gone.status).toBe(409);
      expect(gone.body).toMatchObject({ code: 'recipe_template_unavailable', details: {} });
    } finally {
      await http(sb, 'PATCH', '/_sandbox/recipes/templates/4001', { body: { deployable: true } });
    }
  });

  it('while a build runs: 409 build_already_running with recipe_updated true when the steps were recreated, false otherwise', async () => {
    const id = await createRecipe(sb, token, 4001);
    await configure(sb, token, id, configuration(sb, 101, { google_ads: 'all' }));
    await http(sb, 'POST', `${V31}${id}/build/`, { token });
    const unchanged = await http(sb, 'POST', `${V31}${id}/resetup/`, { token });
    expect(unchanged.status).toBe(409);
    expect(unchanged.body.details).toEqual({ recipe_updated: false });
    await http(sb, 'PATCH', '/_sandbox/recipes/templates/4001', { body: { bump_revision: true } });
    const updated = await http(sb, 'POST', `${V31}${id}/resetup/`, { token });
    expect(updated.body).toMatchObject({ code: 'build_already_running', details: { recipe_updated: true } });
    await waitBuilt(sb, token, id);
  });
});

describe('sandbox: extraction check (v3.1)', () => {
  it('one entry per table, repeating the source with several tables', async () => {
    const { id, recipe } = await builtRecipe(sb, token, 101, 4003, { google_analytics_4: 'all' });
    expect(recipe.state).toBe('ready_to_work');
    const r = await http(sb, 'GET', `${V31}${id}/extractions/`, { token });
    expect(r.body.all_tables_exist).toBe(true);
    expect(r.body.tables.map((t: any) => [t.data_source, t.table])).toEqual([
      ['google_analytics_4', 'google_analytics_4_campaign_performance'],
      ['google_analytics_4', 'google_analytics_4_custom_report'],
    ]);
  });

  it('409 no_active_destination, 409 destination_not_supported, 501 destination_check_unsupported, 503 destination_unavailable', async () => {
    const id = await createRecipe(sb, token, 4001);
    const dc = sb.store.state.destination_connections.find((d) => d.workspace_id === 101)!;
    const s3 = sb.store.state.destinations.find((d) => d.name === 's3')!;
    try {
      dc.status = 'error';
      const none = await http(sb, 'GET', `${V31}${id}/extractions/`, { token });
      expect([none.status, none.body.code]).toEqual([409, 'no_active_destination']);
      const noneV3 = await http(sb, 'GET', `${V3}${id}/extractions/`, { token });
      expect(noneV3.status).toBe(503);
      expect(noneV3.body).toEqual({ detail: expect.any(String) });
      // Every 503 carries Retry-After (the sandbox's --retry-after, 0 in tests).
      expect(noneV3.headers.get('retry-after')).toBe('0');
      dc.status = 'active';
      dc.destination_name = 'sftp';
      const unsupported = await http(sb, 'GET', `${V31}${id}/extractions/`, { token });
      expect([unsupported.status, unsupported.body.code]).toEqual([409, 'destination_not_supported']);
      dc.destination_name = 's3';
      // The control for a destination that hosts recipes but cannot report tables.
      const knob = await http(sb, 'PATCH', '/_sandbox/destinations/s3', { body: { reports_tables: false } });
      expect(knob.body).toMatchObject({ name: 's3', supports_recipes: true, reports_tables: false });
      const cannot = await http(sb, 'GET', `${V31}${id}/extractions/`, { token });
      expect([cannot.status, cannot.body.code]).toEqual([501, 'destination_check_unsupported']);
      const cannotV3 = await http(sb, 'GET', `${V3}${id}/extractions/`, { token });
      expect(cannotV3.status).toBe(501);
      await http(sb, 'PATCH', '/_sandbox/destinations/s3', { body: { reports_tables: true } });
      await http(sb, 'POST', '/_sandbox/recipes/faults', { body: { destination_unavailable: 1 } });
      const down = await http(sb, 'GET', `${V31}${id}/extractions/`, { token });
      expect([down.status, down.body.code, down.headers.get('retry-after')]).toEqual([
        503,
        'destination_unavailable',
        '0',
      ]);
    } finally {
      dc.status = 'active';
      dc.destination_name = 's3';
      s3.reports_tables = true;
    }
  });
});

describe('sandbox: delete (v3.1)', () => {
  it('204, frees the template slot and removes the output table; extractions stay; a repeat is 404', async () => {
    const { id, recipe } = await builtRecipe(sb, token, 101, 4001, { google_ads: 'all' });
    const extracts = sb.store.state.extracts.length;
    const r = await http(sb, 'DELETE', `${V31}${id}/`, { token });
    expect(r.status).toBe(204);
    expect(sb.store.state.data_tables.some((d) => d.id === recipe.datatable_id)).toBe(false);
    expect(sb.store.state.extracts).toHaveLength(extracts);
    expect((await http(sb, 'DELETE', `${V31}${id}/`, { token })).status).toBe(404);
    expect((await http(sb, 'POST', V31, { token, body: { template_id: 4001, title: 'again' } })).status).toBe(201);
  });

  it('deletes the intermediate recipes below; a recipe built on top of a deleted one stays and breaks', async () => {
    const { id, recipe } = await builtRecipe(sb, token, 101, 4004, { google_ads: 'all' });
    expect(recipe.state).toBe('ready_to_work');
    const list = await http(sb, 'GET', V31, { token });
    const base = list.body.results.find((r: any) => r.template_id === 4005);
    expect(base).toMatchObject({ state: 'ready_to_work' });
    // deleting the base breaks the summary built on it
    expect((await http(sb, 'DELETE', `${V31}${base.recipe_id}/`, { token })).status).toBe(204);
    const broken = await http(sb, 'GET', `${V31}${id}/`, { token });
    expect(broken.body).toMatchObject({
      state: 'failed',
      error: { code: 'sql_object_not_found', details: { missing_column: null } },
    });
    // rebuilding recreates the base; deleting the summary deletes it too
    await http(sb, 'POST', `${V31}${id}/build/`, { token });
    await waitBuilt(sb, token, id);
    expect((await http(sb, 'DELETE', `${V31}${id}/`, { token })).status).toBe(204);
    expect((await http(sb, 'GET', V31, { token })).body.count).toBe(0);
  });

  it('500 delete_incomplete keeps the recipe (v3 answers 204 anyway); 409 without an active destination', async () => {
    const id = await createRecipe(sb, token, 4001);
    await http(sb, 'POST', '/_sandbox/recipes/faults', { body: { delete_incomplete: 1 } });
    const r = await http(sb, 'DELETE', `${V31}${id}/`, { token });
    expect(r.status).toBe(500);
    expect(r.body.code).toBe('delete_incomplete');
    expect(String(r.body.details.recipe_id)).toBe(id);
    await http(sb, 'POST', '/_sandbox/recipes/faults', { body: { delete_incomplete: 1 } });
    const v3 = await http(sb, 'DELETE', `${V3}${id}/`, { token });
    expect(v3.status).toBe(204);
    expect(sb.store.state.recipes).toHaveLength(1);
    const dc = sb.store.state.destination_connections.find((d) => d.workspace_id === 101)!;
    dc.status = 'paused';
    try {
      const none = await http(sb, 'DELETE', `${V31}${id}/`, { token });
      expect([none.status, none.body.code]).toEqual([409, 'no_active_destination']);
    } finally {
      dc.status = 'active';
    }
  });
});

describe('sandbox: v3 differences', () => {
  it('create 201 {recipe_id, datatable_id}; duplicate 400 with existing_recipe_ids; display-string states; build 200 {status, message}; resetup 200 {status, recipe_id}', async () => {
    const created = await http(sb, 'POST', V3, { token, body: { template_id: 4001, title: 'v3' } });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body).sort()).toEqual(['datatable_id', 'recipe_id']);
    const id = String(created.body.recipe_id);
    const dup = await http(sb, 'POST', V3, { token, body: { template_id: 4001, title: 'v3' } });
    expect(dup.status).toBe(400);
    expect(dup.body).toEqual({ detail: expect.any(String), existing_recipe_ids: [expect.anything()] });
    const notConfigured = await http(sb, 'POST', `${V3}${id}/build/`, { token });
    expect(notConfigured.status).toBe(400);
    await configure(sb, token, id, configuration(sb, 101, { google_ads: 'all' }));
    const built = await http(sb, 'POST', `${V3}${id}/build/`, { token });
    expect(built.status).toBe(200);
    expect(built.body).toEqual({ status: expect.any(String), message: expect.any(String) });
    expect((await http(sb, 'GET', `${V3}${id}/`, { token })).body.state).toBe('Extracting Data');
    const running = await http(sb, 'POST', `${V3}${id}/build/`, { token });
    expect(running.status).toBe(400);
    expect(running.body).toEqual({ detail: expect.any(String) });
    await waitBuilt(sb, token, id);
    const detail = await http(sb, 'GET', `${V3}${id}/`, { token });
    expect(detail.body.state).toBe('Ready to work');
    expect(detail.body).not.toHaveProperty('degraded');
    expect(detail.body).not.toHaveProperty('sources');
    const resetup = await http(sb, 'POST', `${V3}${id}/resetup/`, { token });
    expect(resetup.status).toBe(200);
    expect(String(resetup.body.recipe_id)).toBe(id);
    expect(resetup.body.status).toEqual(expect.any(String));
    await waitBuilt(sb, token, id);
    const check = await http(sb, 'GET', `${V3}${id}/extractions/`, { token });
    expect(check.body).toEqual({
      ready: true,
      sources: [expect.objectContaining({ data_source: 'google_ads', table_exists: true })],
    });
  });

  it('answers 410 on every v3 path once v3 is switched off; v3.1 goes on serving the same recipes', async () => {
    const id = await createRecipe(sb, token, 4001);
    await http(sb, 'PATCH', '/_sandbox/recipes/v3', { body: { switched_off: true } });
    try {
      const gone = await http(sb, 'GET', `${V3}${id}/`, { token });
      expect(gone.status).toBe(410);
      expect(gone.body).toEqual({ detail: expect.stringContaining('/api/v3.1/') });
      expect((await http(sb, 'GET', '/api/v3/automated-recipe-templates/', { token })).status).toBe(410);
      expect((await http(sb, 'GET', `${V31}${id}/`, { token })).status).toBe(200);
    } finally {
      await http(sb, 'PATCH', '/_sandbox/recipes/v3', { body: { switched_off: false } });
    }
  });

  it('lists: recipe_id as a string, no datatable_id, exact state filter, page_size capped, page past the end 404', async () => {
    const a = await createRecipe(sb, token, 4001);
    await createRecipe(sb, token, 4002);
    const list = await http(sb, 'GET', V3, { token });
    expect(list.body.results[0].recipe_id).toBe(a);
    expect(list.body.results[0]).not.toHaveProperty('datatable_id');
    expect((await http(sb, 'GET', `${V3}?state=ready_to_work`, { token })).body).toMatchObject({
      count: 0,
      results: [],
    });
    expect((await http(sb, 'GET', `${V3}?state=failed`, { token })).status).toBe(200);
    const capped = await http(sb, 'GET', `${V3}?page_size=1000`, { token });
    expect(capped.status).toBe(200);
    expect(capped.body.results).toHaveLength(2);
    const past = await http(sb, 'GET', `${V3}?page=2`, { token });
    expect(past.status).toBe(404);
    expect(past.body).toEqual({ detail: expect.any(String) });
  });
});
