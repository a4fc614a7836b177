import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { cli, sandbox } from '../helpers.js';
import { demo } from '../fixtures/extraction.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox({ buildSeconds: 0.05 });
});
afterAll(() => sb.close());

const edp = (...argv: string[]) => cli(sb, [...argv, '-w', '101']);

async function created(...extra: string[]) {
  const d = demo(sb);
  const r = await edp('extracts', 'create', '--template', String(d.template('facebook_ads', false).id), '--account', String(d.accounts('facebook_ads')[0]!.id), '--json', ...extra);
  expect(r.code).toBe(0);
  return r.json();
}

describe('edp extracts', () => {
  it('lists every extract, with filters', async () => {
    const d = demo(sb);
    const all = await edp('extracts', 'list', '--json');
    expect(all.code).toBe(0);
    expect(all.json().length).toBeGreaterThan(0);
    const none = await edp('extracts', 'list', '--data-source', 'linkedin_ads', '--json');
    expect(none.json()).toEqual([]);
    const byTable = await edp('extracts', 'list', '--table', `${d.table.id},1`, '--connection', String(d.connection('google_ads').id), '--json');
    expect(byTable.json().length).toBe(all.json().length);
    const limited = await edp('extracts', 'list', '--limit', '1', '--json');
    expect(limited.json()).toHaveLength(1);
    const lines = (await edp('extracts', 'list', '--ndjson')).stdout.trim().split('\n');
    expect(lines.map((l) => JSON.parse(l).id)).toEqual(all.json().map((e: any) => e.id));
    const bad = await edp('extracts', 'list', '--connection', 'abc');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--connection');
  });

  it('gets an extract; 404 is exit 5', async () => {
    const id = sb.store.state.extracts.find((e) => e.workspace_id === 101)!.id;
    const r = await edp('extracts', 'get', String(id), '--json');
    expect(r.json()).toMatchObject({ id, template: { is_wide_template: false } });
    expect(r.json()).toHaveProperty('sync_historical_data');
    expect((await edp('extracts', 'get', '999999')).code).toBe(5);
  });

  it('creates an extract (v3.1 path) that runs and delivers', async () => {
    const e = await created('--sync-historical-data', '2024-01-01', '--schedule', 'hourly', '--title', 'FB history');
    expect(e).toMatchObject({ title: 'FB history', schedule: 'hourly', sync_historical_data: '2024-01-01' });
    const run = await edp('extracts', 'get', String(e.id), '--json');
    expect(['running', 'completed']).toContain(run.json().status);
  });

  it('refuses bad create input locally (exit 2), and shows the service\'s 400 for an inactive account', async () => {
    const d = demo(sb);
    const before = sb.store.state.extracts.length;
    expect((await edp('extracts', 'create', '--template', '301', '--account', 'x')).code).toBe(2);
    const schedule = await edp('extracts', 'create', '--template', '301', '--account', '1', '--schedule', 'often');
    expect(schedule.code).toBe(2);
    expect(schedule.stderr).toContain('--schedule');
    expect(sb.store.state.extracts.length).toBe(before);
    const inactive = await edp('extracts', 'create', '--template', String(d.template('google_ads', false).id), '--account', String(d.accounts('google_ads').at(-1)!.id));
    expect(inactive.code).toBe(2);
    expect(inactive.stderr).toMatch(/400: account_embedded_id: account \d+ is inactive/);
    expect(inactive.stderr).toMatch(/trace id: [0-9a-f]+/);
  });

  it('updates only what the flags name', async () => {
    const e = await created();
    const r = await edp('extracts', 'update', String(e.id), '--fields', 'spend', '--additional-params', '{"attribution":"1d"}', '--json');
    expect(r.code).toBe(0);
    expect(r.json().template_settings).toMatchObject({ fields: ['date', 'campaign_id', 'campaign_name', 'spend'], additional_params: { attribution: '1d' } });
    expect(r.json().title).toBe(e.title);
    expect((await edp('extracts', 'update', String(e.id))).code).toBe(2);
    const unknown = await edp('extracts', 'update', String(e.id), '--fields', 'nope');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('nope');
  });

  it('runs and waits for the run to complete', async () => {
    const e = await created();
    await new Promise((r) => setTimeout(r, 150));
    const r = await edp('extracts', 'run', String(e.id), '--wait', '--wait-timeout', '10s');
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('completed');
  });

  it('pauses (then run is a conflict: exit 6) and unpauses', async () => {
    const e = await created();
    const paused = await edp('extracts', 'pause', String(e.id), '--json');
    expect(paused.json()).toMatchObject({ is_paused: true, pause_reason: 'manual' });
    const run = await edp('extracts', 'run', String(e.id));
    expect(run.code).toBe(6);
    expect(run.stderr).toContain('409');
    const unpaused = await edp('extracts', 'unpause', String(e.id));
    expect(unpaused.code).toBe(0);
    expect(unpaused.stderr).toContain('unpaused');
  });

  it('refuses --wait-timeout without --wait', async () => {
    const r = await edp('extracts', 'run', '1', '--wait-timeout', '1m');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--wait');
  });

  it('migrates an extract to a wide template; repeating it is a conflict (exit 6)', async () => {
    const source = sb.store.state.extracts.find((e) => e.workspace_id === 101 && e.template_id === demo(sb).template('google_ads', false).id && !e.is_paused)!;
    const r = await edp('extracts', 'migrate-wide', String(source.id), '--fields', 'date,ad_name,spend', '--json');
    expect(r.code).toBe(0);
    expect(r.json()).toMatchObject({ migrated_from_id: source.id, template: { is_wide_template: true }, template_settings: { fields: ['date', 'ad_name', 'spend'] } });
    expect(sb.store.state.extracts.find((e) => e.id === source.id)!.pause_reason).toBe('migrated');
    const again = await edp('extracts', 'migrate-wide', String(source.id));
    expect(again.code).toBe(6);
    expect(again.stderr).toContain('already migrated');
  });
});
