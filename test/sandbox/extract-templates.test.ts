import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { http, sandbox } from '../helpers.js';
import { bearer, demo } from '../fixtures/extraction.js';

let sb: Sandbox;
let call: ReturnType<typeof bearer>;
beforeEach(async () => {
  sb = await sandbox({ buildSeconds: 0 });
  call = bearer(sb);
});
afterEach(() => sb.close());

const FORMATS = ['string', 'float', 'integer', 'iso_8601_date', 'currency', 'percent', 'duration', 'url', 'image_url'];

describe('extraction templates (HTTP)', () => {
  it("lists a data source's templates; an unknown data source is 400; no token is 401", async () => {
    const r = await call('GET', '/api/v3/datasources/google_ads/extract-templates');
    expect(r.status).toBe(200);
    expect(r.body.results.map((t: any) => t.is_wide_template)).toEqual([false, true]);
    expect((await call('GET', '/api/v3/datasources/nope/extract-templates')).status).toBe(400);
    expect((await http(sb, 'GET', '/api/v3/datasources/google_ads/extract-templates')).status).toBe(401);
  });

  it('shows the detail with sql_name and field objects; never system fields', async () => {
    const t = demo(sb).template('google_ads', true);
    const r = await call('GET', `/api/v3/datasources/google_ads/extract-templates/${t.id}`);
    expect(r.status).toBe(200);
    expect(r.body.sql_name).toBe('google_ads_custom_report');
    for (const f of r.body.fields) {
      expect(Object.keys(f).sort()).toEqual(['format', 'is_dynamic', 'name', 'user_type']);
      expect(FORMATS).toContain(f.format);
    }
    expect(r.body.fields.map((f: any) => f.name)).not.toContain('account_id');
    expect((await call('GET', `/api/v3/datasources/google_ads/extract-templates/999`)).status).toBe(404);
    expect((await call('GET', `/api/v3/datasources/facebook_ads/extract-templates/${t.id}`)).status).toBe(404);
    expect((await call('GET', `/api/v3/datasources/nope/extract-templates/${t.id}`)).status).toBe(400);
  });

  it('gives the compact form by id, with a trailing slash (301 without it)', async () => {
    const t = demo(sb).template('google_ads', true);
    const r = await call('GET', `/api/v3/extract-template/${t.id}/`);
    expect(r.body).toEqual({ id: t.id, datasource_name: 'google_ads', is_wide_template: true });
    const slashless = await call('GET', `/api/v3/extract-template/${t.id}`);
    expect(slashless.status).toBe(301);
    expect((await call('GET', '/api/v3/extract-template/999/')).status).toBe(404);
  });

  describe('create', () => {
    it('creates a wide template on a connection, dynamic metrics defaulting to float', async () => {
      const d = demo(sb);
      const parent = d.template('google_ads', true);
      const r = await call('POST', '/api/v3/datasources/google_ads/extract-templates', {
        title: 'Ads with conversions',
        parent_id: parent.id,
        connection_id: d.connection('google_ads').id,
        fields: ['date', 'ad_name', 'spend'],
        dynamic_fields: ['custom_conversion_purchase'],
      });
      expect(r.status).toBe(201);
      expect(r.body.is_wide_template).toBe(true);
      expect(r.body.parent_id).toBe(parent.id);
      expect(r.body.fields.find((f: any) => f.name === 'custom_conversion_purchase')).toEqual({
        name: 'custom_conversion_purchase',
        format: 'float',
        user_type: 'metric',
        is_dynamic: true,
      });
      const compact = await call('GET', `/api/v3/extract-template/${r.body.id}/`);
      expect(compact.body.is_wide_template).toBe(true);
    });

    it('keeps every dimension of a non-wide parent', async () => {
      const parent = demo(sb).template('google_ads', false);
      const r = await call('POST', '/api/v3/datasources/google_ads/extract-templates', {
        title: 'Spend only',
        parent_id: parent.id,
        fields: ['spend'],
      });
      expect(r.status).toBe(201);
      expect(r.body.is_wide_template).toBe(false);
      expect(r.body.fields.map((f: any) => f.name)).toEqual(['date', 'campaign_id', 'campaign_name', 'spend']);
    });

    it.each([
      [
        'wide without connection_id',
        (d: any) => ({ title: 'x', parent_id: d.template('google_ads', true).id, fields: ['date', 'spend'] }),
        'connection_id',
      ],
      [
        'wide without fields',
        (d: any) => ({
          title: 'x',
          parent_id: d.template('google_ads', true).id,
          connection_id: d.connection('google_ads').id,
        }),
        'fields',
      ],
      [
        'wide with an unknown field',
        (d: any) => ({
          title: 'x',
          parent_id: d.template('google_ads', true).id,
          connection_id: d.connection('google_ads').id,
          fields: ['date', 'nope'],
        }),
        'nope',
      ],
      [
        'wide without a metric',
        (d: any) => ({
          title: 'x',
          parent_id: d.template('google_ads', true).id,
          connection_id: d.connection('google_ads').id,
          fields: ['date'],
        }),
        'metric',
      ],
      [
        'a connection of another data source',
        (d: any) => ({
          title: 'x',
          parent_id: d.template('google_ads', true).id,
          connection_id: d.connection('facebook_ads').id,
          fields: ['date', 'spend'],
        }),
        'connection_id',
      ],
      [
        'a parent of another data source',
        (d: any) => ({ title: 'x', parent_id: d.template('facebook_ads', false).id }),
        'parent_id',
      ],
      ['a missing title', (d: any) => ({ parent_id: d.template('google_ads', false).id }), 'title'],
    ])('refuses %s with 400', async (_name, body, mention) => {
      const before = sb.store.state.extract_templates.length;
      const r = await call('POST', '/api/v3/datasources/google_ads/extract-templates', body(demo(sb)));
      expect(r.status).toBe(400);
      expect(JSON.stringify(r.body)).toContain(mention);
      expect(sb.store.state.extract_templates.length).toBe(before);
    });

    // Creation needs EXTRACT.CREATE (docs/contract-rules.md, Extraction templates, create), which a role grants;
    // the chief and owner hold every permission.
    const tokenAs = async (email: string, wsId: number) =>
      (await http(sb, 'POST', '/api/v3/token', { basic: [email, 'sandbox'], body: { workspace_id: wsId } })).body
        .token as string;
    const createAs = async (email: string, wsId: number) =>
      http(sb, 'POST', '/api/v3/datasources/google_ads/extract-templates', {
        token: await tokenAs(email, wsId),
        body: { title: `By ${email} in ${wsId}`, parent_id: demo(sb, wsId).template('google_ads', false).id },
      });

    it.each([
      ['the Media Buyer (custom role with EXTRACT.CREATE)', 'analyst@sandbox.local', 101],
      ['the Editor (system role with EXTRACT.CREATE)', 'editor@sandbox.local', 102],
    ])('lets %s create a template (201)', async (_who, email, wsId) => {
      expect((await createAs(email, wsId)).status).toBe(201);
    });

    it('refuses a user whose role lacks EXTRACT.CREATE (Viewer): 403', async () => {
      const r = await createAs('editor@sandbox.local', 103);
      expect(r.status).toBe(403);
      expect(r.body.detail).toContain('EXTRACT.CREATE');
    });

    it('follows role changes: a custom role without EXTRACT.CREATE refuses its users', async () => {
      const buyer = (await http(sb, 'GET', '/api/v3/roles/', { basic: true })).body.results.find(
        (r: any) => r.title === 'Media Buyer',
      );
      const without = buyer.permissions.filter((p: any) => !(p.layer === 'EXTRACT' && p.permission === 'CREATE'));
      expect(
        (await http(sb, 'PATCH', `/api/v3/roles/${buyer.id}`, { basic: true, body: { permissions: without } })).status,
      ).toBe(200);
      try {
        expect((await createAs('analyst@sandbox.local', 101)).status).toBe(403);
      } finally {
        await http(sb, 'PATCH', `/api/v3/roles/${buyer.id}`, { basic: true, body: { permissions: buyer.permissions } });
      }
    });
  });

  describe('validation', () => {
    it('accepts accounts of one connection with settings', async () => {
      const d = demo(sb);
      const [a, b] = d.accounts('google_ads');
      const r = await call('POST', `/api/v3/extract-template/${d.template('google_ads', true).id}/validation/`, {
        accounts: [a!.id, b!.id],
        template_settings: {
          fields: ['date', 'spend'],
          dynamic_fields: ['custom_label'],
          additional_params: { attribution: '7d' },
          custom_filters: [],
          sync_historical_data: '2024-01-01',
        },
      });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ valid: true, connection_id: a!.connection_id, accounts: [a!.id, b!.id] });
    });

    it.each([
      ['an empty account list', () => ({ accounts: [] }), 'accounts'],
      [
        'accounts of several connections',
        (d: any) => ({ accounts: [d.accounts('google_ads')[0].id, demo(sb, 102).accounts('google_ads')[0].id] }),
        'accounts',
      ],
      ['an account that does not exist', () => ({ accounts: [99999999] }), '99999999'],
      [
        'accounts of two connections in the workspace',
        (d: any) => ({ accounts: [d.accounts('google_ads')[0].id, d.accounts('facebook_ads')[0].id] }),
        'accounts',
      ],
      [
        'an unknown settings key',
        (d: any) => ({ accounts: [d.accounts('google_ads')[0].id], template_settings: { colour: 'red' } }),
        'template_settings',
      ],
      [
        'an unknown field',
        (d: any) => ({ accounts: [d.accounts('google_ads')[0].id], template_settings: { fields: ['nope'] } }),
        'nope',
      ],
      [
        'a bad history date',
        (d: any) => ({
          accounts: [d.accounts('google_ads')[0].id],
          template_settings: { sync_historical_data: '2024-02-30' },
        }),
        'sync_historical_data',
      ],
      [
        'a wide selection without a metric',
        (d: any) => ({
          accounts: [d.accounts('google_ads')[0].id],
          template_settings: { fields: ['date'], dynamic_fields: ['custom_label'] },
        }),
        'metric',
      ],
      [
        "a dynamic field outside the connection's schema",
        (d: any) => ({
          accounts: [d.accounts('google_ads')[0].id],
          template_settings: { dynamic_fields: ['custom_event_signup'] },
        }),
        'dynamic schema',
      ],
    ])('answers 400 for %s', async (_name, body, mention) => {
      const d = demo(sb);
      const r = await call(
        'POST',
        `/api/v3/extract-template/${d.template('google_ads', true).id}/validation/`,
        body(d),
      );
      expect(r.status).toBe(400);
      expect(JSON.stringify(r.body)).toContain(mention);
    });

    it('is 404 for an unknown template', async () => {
      expect((await call('POST', '/api/v3/extract-template/999/validation/', { accounts: [1] })).status).toBe(404);
    });
  });

  it('previews rows of the chosen fields', async () => {
    const d = demo(sb);
    const r = await call('POST', `/api/v3/extract-template/${d.template('google_ads', false).id}/preview/`, {
      accounts: [d.accounts('google_ads')[0]!.id],
    });
    expect(r.status).toBe(200);
    expect(r.body.rows).toHaveLength(5);
    expect(Object.keys(r.body.rows[0])).toEqual(r.body.fields.map((f: any) => f.name));
  });

  describe('custom setting options', () => {
    it('pages options grouped by account, with search', async () => {
      const d = demo(sb);
      const remote = d
        .accounts('google_ads')
        .slice(0, 3)
        .map((a) => a.account_id);
      const r = await call('POST', '/api/v3/datasources/google_ads/custom_setting_options/?page_size=2&search=purch', {
        connection_id: d.connection('google_ads').id,
        account_ids: remote,
      });
      expect(r.status).toBe(200);
      expect(r.body.count).toBe(3);
      expect(r.body.next).toContain('page=2');
      expect(r.body.results[0]).toMatchObject({ account_id: remote[0], options: [{ title: 'Purchase' }] });
    });

    it('refuses accounts outside the connection and a foreign connection with 400', async () => {
      const d = demo(sb);
      const other = demo(sb, 102);
      const r1 = await call('POST', '/api/v3/datasources/google_ads/custom_setting_options/', {
        connection_id: d.connection('google_ads').id,
        account_ids: ['nope'],
      });
      expect(r1.status).toBe(400);
      const r2 = await call('POST', '/api/v3/datasources/google_ads/custom_setting_options/', {
        connection_id: other.connection('google_ads').id,
        account_ids: ['x'],
      });
      expect(r2.status).toBe(400);
      expect(r2.body.detail).toContain('connection_id');
    });
  });
});
