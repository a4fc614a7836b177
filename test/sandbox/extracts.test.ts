import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { sandbox, settleClock } from '../helpers.js';
import { bearer, demo } from '../fixtures/extraction.js';

let sb: Sandbox;
let call: ReturnType<typeof bearer>;
beforeEach(async () => {
  // A run takes a minute of the sandbox's clock, which moves only when a test moves it.
  sb = await sandbox({ buildSeconds: 60 });
  call = bearer(sb);
});
afterEach(() => sb.close());

const eventsOf = (type: string) => sb.store.state.events.filter((e) => e.type === type);

async function createExtract(body: Record<string, unknown>) {
  const r = await call('POST', '/api/v3.1/extracts/', body);
  if (r.status !== 201) throw new Error(`create: ${r.status} ${r.text}`);
  return r.body;
}

describe('extracts (HTTP)', () => {
  it("lists the demo extracts with the contract's fields", async () => {
    const r = await call('GET', '/api/v3/extracts');
    expect(r.status).toBe(200);
    expect(r.body.count).toBeGreaterThan(0);
    const e = r.body.results[0];
    for (const key of ['sync_historical_data', 'account_entity_id', 'account_embedded_id'])
      expect(e).toHaveProperty(key);
    expect(e.template.is_wide_template).toBe(false);
    expect(e.fields[0]).toHaveProperty('format');
  });

  it('filters by connection_id, datasource_name and data_table_id, single or comma-separated', async () => {
    const d = demo(sb);
    const g = d.connection('google_ads').id;
    const all = (await call('GET', '/api/v3/extracts')).body.count;
    expect((await call('GET', `/api/v3/extracts?connection_id=${g}`)).body.count).toBe(all);
    expect(
      (await call('GET', `/api/v3/extracts?connection_id=${g},${d.connection('facebook_ads').id}`)).body.count,
    ).toBe(all);
    expect((await call('GET', '/api/v3/extracts?datasource_name=facebook_ads')).body.count).toBe(0);
    expect((await call('GET', '/api/v3/extracts?datasource_name=facebook_ads,google_ads')).body.count).toBe(all);
    expect((await call('GET', `/api/v3/extracts?data_table_id=${d.table.id}`)).body.count).toBe(all);
    expect((await call('GET', '/api/v3/extracts?data_table_id=1')).body.count).toBe(0);
    expect((await call('GET', '/api/v3/extracts?connection_id=abc')).status).toBe(400);
  });

  it('creates at /api/v3.1/extracts/ (with slash), runs in the background and delivers rows', async () => {
    const d = demo(sb);
    const account = d.accounts('facebook_ads')[1]!;
    const e = await createExtract({
      template_id: d.template('facebook_ads', false).id,
      account_embedded_id: account.id,
      template_settings: { sync_historical_data: '2020-01-01' },
    });
    expect(e).toMatchObject({
      account_entity_id: account.id,
      account_embedded_id: account.id,
      sync_historical_data: '2020-01-01',
      status: 'running',
    });
    expect(e.template.is_wide_template).toBe(false);
    await settleClock(sb);
    expect((await call('GET', `/api/v3/extracts/${e.id}`)).body.status).toBe('completed');
    expect(sb.store.state.data_table_rows[String(e.data_table_id)]!.length).toBeGreaterThan(6);
    for (const type of [
      'extraction_created',
      'regular_download_started',
      'historical_download_started',
      'extraction_completed',
    ]) {
      expect(eventsOf(type).some((ev) => ev.data.dts_order_params_id === String(e.id))).toBe(true);
    }
    const ev = eventsOf('extraction_created').find((x) => x.data.dts_order_params_id === String(e.id))!;
    expect(ev.shape).toBe('Extraction');
    expect(Object.values(ev.data).every((v) => typeof v === 'string')).toBe(true);
  });

  it('shows extracts and tables created directly in the state (recipe builds), whose runs deliver with history', async () => {
    const d = demo(sb);
    const template = d.template('google_analytics_4', false);
    const account = d.accounts('google_analytics_4')[0]!;
    const now = sb.store.clock.iso();
    const table = {
      id: sb.store.nextId('data_table'),
      workspace_id: 101,
      title: template.title,
      sql_name: template.sql_name,
      datasource_name: template.datasource_name,
      created_at: now,
    };
    sb.store.state.data_tables.push(table);
    const extract = {
      id: sb.store.nextId('extract'),
      workspace_id: 101,
      connection_id: account.connection_id,
      datasource_name: 'google_analytics_4',
      account_entity_id: account.id,
      account_embedded_id: account.id,
      template_id: template.id,
      data_table_id: table.id,
      title: 'Built by a recipe',
      is_paused: false,
      pause_reason: null,
      status: 'new',
      delivered: false,
      last_run_at: null,
      sync_historical_data: '2000-01-01',
      created_at: now,
      updated_at: now,
    };
    sb.store.state.extracts.push(extract);
    sb.store.runExtract(extract);
    await settleClock(sb);
    expect(extract.delivered).toBe(true);
    const e = (await call('GET', `/api/v3/extracts/${extract.id}`)).body;
    expect(e).toMatchObject({ status: 'completed', schedule: 'daily', template: { is_wide_template: false } });
    expect(e.template_settings.fields).toEqual(template.fields.map((f) => f.name));
    const t = (await call('GET', `/api/v3/data-tables/${table.id}`)).body;
    expect(t.fields.map((f: any) => f.name)).toEqual([
      ...template.fields.map((f) => f.name),
      'account_id',
      'account_name',
      '__insert_date',
    ]);
    // 60 days of history plus today, two rows a day
    expect(t.rows_count).toBeGreaterThan(100);
    expect(
      eventsOf('historical_download_started').some((ev) => ev.data.dts_order_params_id === String(extract.id)),
    ).toBe(true);
  });

  it('answers 301 on the slashless v3.1 path and keeps the {detail} envelope for its errors', async () => {
    expect((await call('POST', '/api/v3.1/extracts', {})).status).toBe(301);
    const r = await call('POST', '/api/v3.1/extracts/', { template_id: 999, account_embedded_id: 1 });
    expect(r.status).toBe(400);
    expect(typeof r.body.detail).toBe('string');
    expect(r.body.code).toBeUndefined();
  });

  it.each([
    ['a missing account', (d: any) => ({ template_id: d.template('google_ads', false).id }), 'account_embedded_id'],
    [
      'an account of another data source',
      (d: any) => ({
        template_id: d.template('google_ads', false).id,
        account_embedded_id: d.accounts('facebook_ads')[0].id,
      }),
      'facebook_ads',
    ],
    [
      'an inactive account',
      (d: any) => ({
        template_id: d.template('google_ads', false).id,
        account_embedded_id: d.accounts('google_ads').at(-1).id,
      }),
      'inactive',
    ],
    [
      "another workspace's account",
      (d: any) => ({
        template_id: d.template('google_ads', false).id,
        account_embedded_id: demo(sb, 102).accounts('google_ads')[0]!.id,
      }),
      'account_embedded_id',
    ],
    [
      'a table of another template',
      (d: any) => ({
        template_id: d.template('google_ads', true).id,
        account_embedded_id: d.accounts('google_ads')[0].id,
        data_table_id: d.table.id,
      }),
      'data_table_id',
    ],
    [
      'unknown fields',
      (d: any) => ({
        template_id: d.template('google_ads', false).id,
        account_embedded_id: d.accounts('google_ads')[0].id,
        template_settings: { fields: ['nope'] },
      }),
      'nope',
    ],
    [
      'a future history date',
      (d: any) => ({
        template_id: d.template('google_ads', false).id,
        account_embedded_id: d.accounts('google_ads')[0].id,
        template_settings: { sync_historical_data: '2999-01-01' },
      }),
      'future',
    ],
  ])('refuses %s with 400 and creates nothing', async (_name, body, mention) => {
    const before = sb.store.state.extracts.length;
    const r = await call('POST', '/api/v3.1/extracts/', body(demo(sb)));
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.body)).toContain(mention);
    expect(sb.store.state.extracts.length).toBe(before);
  });

  it("gets, puts and patches; 404 for another workspace's extract", async () => {
    const d = demo(sb);
    const e = await createExtract({
      template_id: d.template('google_ads', true).id,
      account_embedded_id: d.accounts('google_ads')[1]!.id,
      template_settings: { fields: ['date', 'spend'] },
    });
    const put = await call('PUT', `/api/v3/extracts/${e.id}`, {
      title: 'Wide spend',
      schedule: 'hourly',
      template_settings: { fields: ['date', 'ad_name', 'spend'], dynamic_fields: ['custom_conversion_lead'] },
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ title: 'Wide spend', schedule: 'hourly' });
    expect(put.body.fields.map((f: any) => f.name)).toEqual(['date', 'ad_name', 'spend', 'custom_conversion_lead']);
    expect((await call('PUT', `/api/v3/extracts/${e.id}`, { title: 'x' })).status).toBe(400);
    const patch = await call('PATCH', `/api/v3/extracts/${e.id}`, {
      template_settings: { additional_params: { attribution: '28d' } },
    });
    expect(patch.body.template_settings).toMatchObject({
      fields: ['date', 'ad_name', 'spend'],
      additional_params: { attribution: '28d' },
    });
    expect(eventsOf('fields_changed').some((ev) => ev.data.dts_order_params_id === String(e.id))).toBe(true);
    expect(eventsOf('additional_params_changed').some((ev) => ev.data.dts_order_params_id === String(e.id))).toBe(true);
    expect((await call('PATCH', `/api/v3/extracts/${e.id}`, { template_settings: { fields: ['nope'] } })).status).toBe(
      400,
    );
    const foreign = sb.store.state.extracts.find((x) => x.workspace_id === 102)!;
    expect((await call('GET', `/api/v3/extracts/${foreign.id}`)).status).toBe(404);
    expect((await call('GET', '/api/v3/extracts/999999')).status).toBe(404);
  });

  it('pauses (never delivering), refuses to run while paused (409), unpauses and runs', async () => {
    const d = demo(sb);
    const e = await createExtract({
      template_id: d.template('linkedin_ads', false).id,
      account_embedded_id: d.accounts('linkedin_ads')[0]!.id,
    });
    const paused = await call('POST', `/api/v3/extracts/${e.id}/pause`);
    expect(paused.body).toMatchObject({ is_paused: true, pause_reason: 'manual' });
    expect((await call('POST', `/api/v3/extracts/${e.id}/pause`)).status).toBe(200);
    const run = await call('POST', `/api/v3/extracts/${e.id}/run`);
    expect(run.status).toBe(409);
    // Once the clock has passed every run, the one started before the pause has ended without
    // delivering, while an extract created after the pause has delivered.
    const later = await createExtract({
      template_id: d.template('linkedin_ads', false).id,
      account_embedded_id: d.accounts('linkedin_ads')[0]!.id,
    });
    await settleClock(sb);
    expect((await call('GET', `/api/v3/extracts/${later.id}`)).body.status).toBe('completed');
    expect(sb.store.state.extracts.find((x) => x.id === e.id)!.delivered).toBe(false);
    const unpaused = await call('POST', `/api/v3/extracts/${e.id}/unpause`);
    expect(unpaused.body.is_paused).toBe(false);
    await settleClock(sb);
    expect((await call('GET', `/api/v3/extracts/${e.id}`)).body.status).toBe('completed');
    const again = await call('POST', `/api/v3/extracts/${e.id}/run`);
    expect(again.status).toBe(202);
    expect((await call('POST', `/api/v3/extracts/${e.id}/run`)).status).toBe(409);
    expect(eventsOf('extraction_paused').length).toBeGreaterThan(0);
    expect(eventsOf('extraction_unpaused').length).toBeGreaterThan(0);
  });

  it('an orphaned extract (connection deleted) cannot run or be unpaused', async () => {
    const e = sb.store.state.extracts.find((x) => x.workspace_id === 103)!;
    const c = sb.store.state.connections.find((x) => x.id === e.connection_id)!;
    c.deleted = true;
    Object.assign(e, { is_paused: true, pause_reason: 'connection_deleted' });
    const call103 = bearer(sb, 103);
    expect((await call103('POST', `/api/v3/extracts/${e.id}/unpause`)).status).toBe(409);
    expect((await call103('POST', `/api/v3/extracts/${e.id}/run`)).status).toBe(409);
  });

  it('migrates to a wide template: new extract, original paused, its rows kept', async () => {
    const d = demo(sb);
    const source = sb.store.state.extracts.find(
      (x) => x.workspace_id === 101 && x.data_table_id === d.table.id && !x.is_paused,
    )!;
    const rowsBefore = sb.store.state.data_table_rows[String(d.table.id)]!.length;
    const r = await call('POST', '/api/v3/extracts/migrate-wide', {
      migrated_from_extraction_id: source.id,
      template_settings: { additional_params: { level: 'ad' } },
    });
    expect(r.status).toBe(201);
    expect(r.body.template.is_wide_template).toBe(true);
    expect(r.body.migrated_from_id).toBe(source.id);
    // omitted settings are copied (the fields the wide template also has)
    expect(r.body.template_settings.fields).toEqual(['date', 'campaign_name', 'impressions', 'spend']);
    expect(r.body.account_entity_id).toBe(source.account_entity_id);
    const original = (await call('GET', `/api/v3/extracts/${source.id}`)).body;
    expect(original).toMatchObject({ is_paused: true, pause_reason: 'migrated', migrated_to_id: r.body.id });
    expect(sb.store.state.data_table_rows[String(d.table.id)]!.length).toBe(rowsBefore);
    expect((await call('GET', `/api/v3/data-tables/${d.table.id}`)).status).toBe(200);
    const again = await call('POST', '/api/v3/extracts/migrate-wide', {
      migrated_from_extraction_id: source.id,
      template_settings: {},
    });
    expect(again.status).toBe(409);
    expect((await call('POST', `/api/v3/extracts/${source.id}/unpause`)).status).toBe(409);
  });

  it.each([
    ['a missing template_settings', () => ({ migrated_from_extraction_id: 1 }), 'template_settings'],
    [
      'an unknown extract',
      () => ({ migrated_from_extraction_id: 999999, template_settings: {} }),
      'migrated_from_extraction_id',
    ],
    [
      'a wide extract',
      // A wide extract of this test's own, migrated from a demo one.
      async () => {
        const d = demo(sb);
        const source = sb.store.state.extracts.find(
          (x) => x.workspace_id === 101 && x.data_table_id === d.table.id && !x.is_paused,
        )!;
        const wide = await call('POST', '/api/v3/extracts/migrate-wide', {
          migrated_from_extraction_id: source.id,
          template_settings: {},
        });
        expect(wide.status).toBe(201);
        return { migrated_from_extraction_id: wide.body.id, template_settings: {} };
      },
      'wide',
    ],
  ])('refuses migrate-wide with %s (400)', async (_name, body, mention) => {
    const r = await call('POST', '/api/v3/extracts/migrate-wide', await body());
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.body)).toContain(mention);
  });
});
