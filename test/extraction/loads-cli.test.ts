import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { cli, http, sandbox } from '../helpers.js';
import { demo } from '../fixtures/extraction.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox({ buildSeconds: 0.05 });
});
afterAll(() => sb.close());

const edp = (...argv: string[]) => cli(sb, [...argv, '-w', '101']);
const exists = (id: number) => sb.store.state.loads.some((l) => l.id === id);

async function newLoad(...extra: string[]): Promise<number> {
  const d = demo(sb);
  const r = await edp('loads', 'create', '--table', String(d.table.id), '--destination-connection', String(d.s3.id), '--json', ...extra);
  expect(r.code).toBe(0);
  return r.json().id;
}

describe('edp loads', () => {
  it('lists and gets loads; 404 is exit 5', async () => {
    const list = await edp('loads', 'list', '--json');
    expect(list.json()).toHaveLength(1);
    const id = list.json()[0].id;
    const get = await edp('loads', 'get', String(id), '--json');
    expect(get.json()).toMatchObject({ id, status: 'active', last_run: null });
    expect((await edp('loads', 'get', '999999')).code).toBe(5);
  });

  it('creates a load; a table of another workspace is the service\'s 400 (exit 2)', async () => {
    const id = await newLoad('--title', 'Nightly', '--schedule', 'weekly');
    expect(sb.store.state.loads.find((l) => l.id === id)).toMatchObject({ title: 'Nightly', schedule: 'weekly' });
    const r = await edp('loads', 'create', '--table', String(demo(sb, 102).table.id), '--destination-connection', String(demo(sb).s3.id));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('data_table_id');
    expect((await edp('loads', 'create', '--table', 'x', '--destination-connection', '1')).code).toBe(2);
  });

  it('updates only the named parts (the rest is read and sent back whole)', async () => {
    const id = await newLoad('--title', 'Keep me');
    const r = await edp('loads', 'update', String(id), '--schedule', 'hourly', '--json');
    expect(r.json()).toMatchObject({ title: 'Keep me', schedule: 'hourly' });
    expect((await edp('loads', 'update', String(id))).code).toBe(2);
    expect((await edp('loads', 'update', String(id), '--schedule', 'sometimes')).code).toBe(2);
  });

  it('runs a date range and waits; the export has the system fields', async () => {
    const id = await newLoad();
    const today = sb.store.clock.iso().slice(0, 10);
    const r = await edp('loads', 'run', String(id), '--from', '2020-01-01', '--to', today, '--wait', '--json');
    expect(r.code).toBe(0);
    const run = r.json().last_run;
    expect(run).toMatchObject({ status: 'completed', date_from: '2020-01-01', date_to: today });
    const csv = await http(sb, 'GET', `/_sandbox/exports/${run.export_id}`);
    expect(csv.text.split('\n')[0]).toMatch(/,account_id,account_name,__insert_date$/);
  });

  it('runs the schedule window without waiting', async () => {
    const id = await newLoad();
    const r = await edp('loads', 'run', String(id));
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`Load ${id} started run`);
  });

  it.each([
    [['--from', '2024-01-01'], '--from and --to go together'],
    [['--to', '2024-01-01'], '--from and --to go together'],
    [['--from', '2024-02-01', '--to', '2024-01-01'], 'is after --to'],
    [['--from', '2024-01-32', '--to', '2024-02-01'], '--from'],
    [['--wait-timeout', '5m'], '--wait'],
  ])('refuses run %j locally (exit 2) and starts nothing', async (args, message) => {
    const id = await newLoad();
    const r = await edp('loads', 'run', String(id), ...args);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(sb.store.state.loads.find((l) => l.id === id)!.last_run).toBeNull();
  });

  it('pauses (a run is then a conflict: exit 6) and unpauses', async () => {
    const id = await newLoad();
    expect((await edp('loads', 'pause', String(id), '--json')).json().status).toBe('paused');
    const r = await edp('loads', 'run', String(id));
    expect(r.code).toBe(6);
    expect(r.stderr).toContain('paused');
    expect((await edp('loads', 'unpause', String(id), '--json')).json().status).toBe('active');
  });

  it('delete needs --yes without a terminal, and deletes with it', async () => {
    const id = await newLoad();
    const refused = await edp('loads', 'delete', String(id));
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--yes');
    expect(exists(id)).toBe(true);
    const r = await edp('loads', 'delete', String(id), '--yes');
    expect(r.code).toBe(0);
    expect(exists(id)).toBe(false);
    expect((await edp('loads', 'delete', String(id), '--yes')).code).toBe(5);
  });

  it('delete asks on a terminal', async () => {
    const id = await newLoad();
    const declined = await cli(sb, ['loads', 'delete', String(id), '-w', '101'], { tty: true, stdin: 'n\n' });
    expect(declined.code).toBe(11);
    expect(exists(id)).toBe(true);
    const confirmed = await cli(sb, ['loads', 'delete', String(id), '-w', '101'], { tty: true, stdin: 'y\n' });
    expect(confirmed.code).toBe(0);
    expect(exists(id)).toBe(false);
  });
});
