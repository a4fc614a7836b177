import { describe, expect, it } from 'vitest';
import { http, useSandbox } from '../../helpers.js';
import { newLoad } from './fixtures.js';

const t = useSandbox({ buildSeconds: 0.05 }, ['-w', '101']);

describe('edp loads run', () => {
  it('runs a date range and waits; the export has the system fields', async () => {
    const id = await newLoad(t);
    const today = t.sb.store.clock.iso().slice(0, 10);
    const r = await t.edp('loads', 'run', String(id), '--from', '2020-01-01', '--to', today, '--wait', '--json');
    expect(r.code).toBe(0);
    const run = r.json().last_run;
    expect(run).toMatchObject({ status: 'completed', date_from: '2020-01-01', date_to: today });
    const csv = await http(t.sb, 'GET', `/_sandbox/exports/${run.export_id}`);
    expect(csv.text.split('\n')[0]).toMatch(/,account_id,account_name,__insert_date$/);
  });

  it('runs the schedule window without waiting', async () => {
    const id = await newLoad(t);
    const r = await t.edp('loads', 'run', String(id));
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
    const id = await newLoad(t);
    const r = await t.edp('loads', 'run', String(id), ...args);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(t.sb.store.state.loads.find((l) => l.id === id)!.last_run).toBeNull();
  });
});
