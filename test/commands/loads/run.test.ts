import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { cli, http, sandbox } from '../../helpers.js';
import { demo } from '../../fixtures/extraction.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox({ buildSeconds: 0.05 });
});
afterAll(() => sb.close());

const edp = (...argv: string[]) => cli(sb, [...argv, '-w', '101']);

async function newLoad(...extra: string[]): Promise<number> {
  const d = demo(sb);
  const r = await edp(
    'loads',
    'create',
    '--table',
    String(d.table.id),
    '--destination-connection',
    String(d.s3.id),
    '--json',
    ...extra,
  );
  expect(r.code).toBe(0);
  return r.json().id;
}

describe('edp loads run', () => {
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
    [['--poll-interval', '1s'], '--poll-interval works with --wait'],
    [['--wait', '--poll-interval', 'soon'], '--poll-interval'],
  ])('refuses run %j locally (exit 2) and starts nothing', async (args, message) => {
    const id = await newLoad();
    const r = await edp('loads', 'run', String(id), ...args);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(sb.store.state.loads.find((l) => l.id === id)!.last_run).toBeNull();
  });
});
