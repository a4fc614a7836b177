import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { sandbox } from '../helpers.js';
import { bearer, demo } from '../fixtures/extraction.js';

let sb: Sandbox;
let call: ReturnType<typeof bearer>;
beforeAll(async () => {
  sb = await sandbox({ buildSeconds: 0 });
  call = bearer(sb);
});
afterAll(() => sb.close());

describe('data tables (HTTP)', () => {
  it("lists the workspace's tables only", async () => {
    const r = await call('GET', '/api/v3/data-tables');
    expect(r.status).toBe(200);
    expect(r.body.results.map((t: any) => t.title)).toContain('Google Ads campaigns');
    const foreign = demo(sb, 102).table;
    expect(r.body.results.map((t: any) => t.id)).not.toContain(foreign.id);
    expect((await call('GET', `/api/v3/data-tables/${foreign.id}`)).status).toBe(404);
  });

  it('shows the full schema with the system fields and sql_name', async () => {
    const t = demo(sb).table;
    const r = await call('GET', `/api/v3/data-tables/${t.id}`);
    expect(r.body.sql_name).toBe(t.sql_name);
    const names = r.body.fields.map((f: any) => f.name);
    expect(names).toEqual(expect.arrayContaining(['date', 'spend', 'account_id', 'account_name', '__insert_date']));
    expect(r.body.rows_count).toBeGreaterThan(0);
  });

  it('PUT selected_fields: unlisted fields deselected, unknown names ignored', async () => {
    const t = demo(sb).table;
    const r = await call('PUT', `/api/v3/data-tables/${t.id}`, {
      selected_fields: ['date', 'campaign_id', 'campaign_name', 'spend', 'no_such_field'],
    });
    expect(r.status).toBe(200);
    expect(r.body.selected_fields).toEqual(['date', 'campaign_id', 'campaign_name', 'spend']);
    expect(r.body.fields.find((f: any) => f.name === 'clicks').is_selected).toBe(false);
    expect(r.body.fields.find((f: any) => f.name === 'account_id').is_selected).toBe(true);
    const got = await call('GET', `/api/v3/data-tables/${t.id}`);
    expect(got.body).toEqual(r.body);
    expect(sb.store.state.events.some((e) => e.type === 'table_meta_set' && e.data.datatable_id === String(t.id))).toBe(
      true,
    );
  });

  it('refuses to deselect a dimension (400) and changes nothing', async () => {
    const t = demo(sb).table;
    const before = (await call('GET', `/api/v3/data-tables/${t.id}`)).body.selected_fields;
    const r = await call('PUT', `/api/v3/data-tables/${t.id}`, { selected_fields: ['date', 'spend', 'clicks'] });
    expect(r.status).toBe(400);
    expect(r.body.detail).toContain('campaign_id');
    expect((await call('GET', `/api/v3/data-tables/${t.id}`)).body.selected_fields).toEqual(before);
    expect((await call('PUT', `/api/v3/data-tables/${t.id}`, {})).status).toBe(400);
  });
});
