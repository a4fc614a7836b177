import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { advanceClock, http, sandbox, tempDir } from '../helpers.js';
import { bearer, demo } from '../fixtures/extraction.js';

let sb: Sandbox;
let call: ReturnType<typeof bearer>;
// A run takes a minute of the sandbox's clock, which stands still until a test moves it.
const BUILD_SECONDS = 60;
beforeEach(async () => {
  sb = await sandbox({ buildSeconds: BUILD_SECONDS });
  call = bearer(sb);
});
afterEach(() => sb.close());

async function newLoad() {
  const d = demo(sb);
  const r = await call('POST', '/api/v3/loads', { data_table_id: d.table.id, destination_connection_id: d.s3.id });
  expect(r.status).toBe(201);
  return r.body;
}

async function finished(id: number) {
  await advanceClock(sb, BUILD_SECONDS);
  return (await call('GET', `/api/v3/loads/${id}`)).body;
}

describe('loads (HTTP)', () => {
  it('lists the demo load and creates one (load_created)', async () => {
    expect((await call('GET', '/api/v3/loads')).body.count).toBe(1);
    const load = await newLoad();
    expect(load).toMatchObject({ status: 'active', schedule: 'daily', last_run: null });
    expect(
      sb.store.state.events.some(
        (e) => e.type === 'load_created' && e.shape === 'Load' && e.data.load_id === String(load.id),
      ),
    ).toBe(true);
  });

  it('refuses a table or destination connection outside the workspace (400)', async () => {
    const other = demo(sb, 102);
    const d = demo(sb);
    expect(
      (await call('POST', '/api/v3/loads', { data_table_id: other.table.id, destination_connection_id: d.s3.id }))
        .status,
    ).toBe(400);
    expect(
      (await call('POST', '/api/v3/loads', { data_table_id: d.table.id, destination_connection_id: other.s3.id }))
        .status,
    ).toBe(400);
    expect((await call('POST', '/api/v3/loads', { data_table_id: d.table.id })).status).toBe(400);
  });

  it('runs a range into a CSV whose header has the system fields', async () => {
    const load = await newLoad();
    const today = sb.store.clock.iso().slice(0, 10);
    const r = await call('PUT', `/api/v3/loads/${load.id}/run`, { date_from: '2000-01-01', date_to: today });
    expect(r.status).toBe(202);
    expect(r.body.last_run).toMatchObject({ status: 'running', date_from: '2000-01-01', date_to: today });
    await advanceClock(sb, BUILD_SECONDS - 0.001);
    expect((await call('GET', `/api/v3/loads/${load.id}`)).body.last_run.status).toBe('running');
    await advanceClock(sb, 0.001);
    const done = await finished(load.id);
    expect(done.last_run.status).toBe('completed');
    expect(done.last_run.rows).toBeGreaterThan(0);
    const csv = await http(sb, 'GET', `/_sandbox/exports/${done.last_run.export_id}`);
    const header = csv.text.split('\n')[0]!.split(',');
    expect(header).toEqual(expect.arrayContaining(['date', 'spend', 'account_id', 'account_name', '__insert_date']));
    expect(csv.text.trim().split('\n')).toHaveLength(done.last_run.rows + 1);
    for (const type of ['load_started', 'load_completed']) {
      expect(sb.store.state.events.some((e) => e.type === type && e.data.load_id === String(load.id))).toBe(true);
    }
  });

  it('delivers only the selected fields of the table', async () => {
    const d = demo(sb, 102);
    const call102 = bearer(sb, 102);
    await call102('PUT', `/api/v3/data-tables/${d.table.id}`, {
      selected_fields: ['date', 'campaign_id', 'campaign_name', 'clicks'],
    });
    const load = (await call102('GET', '/api/v3/loads')).body.results[0];
    await call102('PUT', `/api/v3/loads/${load.id}/run`);
    await advanceClock(sb, BUILD_SECONDS);
    const run = (await call102('GET', `/api/v3/loads/${load.id}`)).body.last_run;
    const csv = await http(sb, 'GET', `/_sandbox/exports/${run.export_id}`);
    expect(csv.text.split('\n')[0]).toBe('date,campaign_id,campaign_name,clicks,account_id,account_name,__insert_date');
  });

  // Both dates are optional, each on its own (docs/contract-rules.md, Loads, PUT run).
  it.each([
    ['only date_from', { date_from: '2024-01-01' }, { date_from: '2024-01-01', date_to: null }],
    ['only date_to', { date_to: '2024-01-31' }, { date_from: null, date_to: '2024-01-31' }],
  ])('runs with %s', async (_name, body, expected) => {
    const load = await newLoad();
    const r = await call('PUT', `/api/v3/loads/${load.id}/run`, body);
    expect(r.status).toBe(202);
    expect(r.body.last_run).toMatchObject(expected);
  });

  it.each([
    ['a date_from after today and no date_to', { date_from: '2999-01-01' }, 'date_from'],
    ['a reversed range', { date_from: '2024-02-01', date_to: '2024-01-01' }, 'date_to'],
    ['a malformed date', { date_from: '2024-13-01', date_to: '2024-12-01' }, 'date_from'],
  ])('refuses a run with %s (400)', async (_name, body, mention) => {
    const load = await newLoad();
    const r = await call('PUT', `/api/v3/loads/${load.id}/run`, body);
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.body)).toContain(mention);
    expect((await call('GET', `/api/v3/loads/${load.id}`)).body.last_run).toBeNull();
  });

  it('pauses (a paused load does not run: 409) and unpauses', async () => {
    const load = await newLoad();
    expect((await call('PUT', `/api/v3/loads/${load.id}/pause`)).body.status).toBe('paused');
    expect((await call('PUT', `/api/v3/loads/${load.id}/run`)).status).toBe(409);
    expect((await call('PUT', `/api/v3/loads/${load.id}/unpause`)).body.status).toBe('active');
    expect((await call('PUT', `/api/v3/loads/${load.id}/run`)).status).toBe(202);
    expect((await call('PUT', `/api/v3/loads/${load.id}/run`)).status).toBe(409);
    await finished(load.id);
  });

  it('puts the full load and deletes it (then 404)', async () => {
    const load = await newLoad();
    const r = await call('PUT', `/api/v3/loads/${load.id}`, {
      title: 'Nightly',
      data_table_id: load.data_table_id,
      destination_connection_id: load.destination_connection_id,
      schedule: 'weekly',
    });
    expect(r.body).toMatchObject({ title: 'Nightly', schedule: 'weekly' });
    expect((await call('PUT', `/api/v3/loads/${load.id}`, { title: 'x' })).status).toBe(400);
    expect((await call('DELETE', `/api/v3/loads/${load.id}`)).status).toBe(204);
    expect((await call('DELETE', `/api/v3/loads/${load.id}`)).status).toBe(404);
    expect((await call('GET', `/api/v3/loads/${load.id}`)).status).toBe(404);
  });

  it('does not run into a destination connection whose check fails (409)', async () => {
    const load = await newLoad();
    const s3 = demo(sb).s3;
    await call('PUT', `/api/v3/destinations/s3/connections/${s3.id}`, { connection_params: { bucket: 'invalid-x' } });
    const r = await call('PUT', `/api/v3/loads/${load.id}/run`);
    expect(r.status).toBe(409);
    expect(r.body.detail).toContain('not active');
    await call('PUT', `/api/v3/destinations/s3/connections/${s3.id}`, {
      connection_params: { bucket: 'edp-sandbox-101' },
    });
  });
});

describe('a sandbox restarted from its state file', () => {
  it('shows no run as still going', async () => {
    const dir = tempDir();
    const stateFile = `${dir.dir}/state.json`;
    try {
      const first = await sandbox({ buildSeconds: 60, stateFile });
      const run = bearer(first);
      const load = (await run('GET', '/api/v3/loads')).body.results[0];
      expect((await run('PUT', `/api/v3/loads/${load.id}/run`)).status).toBe(202);
      const extract = (await run('GET', '/api/v3/extracts')).body.results[0];
      expect((await run('POST', `/api/v3/extracts/${extract.id}/run`)).body.status).toBe('running');
      await first.close();
      const second = await sandbox({ buildSeconds: BUILD_SECONDS, stateFile });
      try {
        const again = bearer(second);
        expect((await again('GET', `/api/v3/loads/${load.id}`)).body.last_run.status).toBe('failed');
        expect((await again('GET', `/api/v3/extracts/${extract.id}`)).body.status).toBe('new');
        expect((await again('PUT', `/api/v3/loads/${load.id}/run`)).status).toBe(202);
      } finally {
        await second.close();
      }
    } finally {
      dir.remove();
    }
  });
});
