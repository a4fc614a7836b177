import { describe, expect, it } from 'vitest';
import { cli, control, http, useSandbox } from '../../helpers.js';
import { newLoad } from './fixtures.js';

const t = useSandbox({ buildSeconds: 0 }, ['-w', '101']);

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

  it('--wait says when the run completed; Ctrl-C says the run goes on and how to follow it', async () => {
    const id = await newLoad(t);
    const done = await t.edp('loads', 'run', String(id), '--wait');
    expect(done.code).toBe(0);
    expect(done.stderr).toMatch(new RegExp(`✓ Load ${id} run \\d+ completed`));
    await control(t.sb, 'PATCH', '/faults', { build_seconds: 60 });
    try {
      const controller = new AbortController();
      // Stopped once the wait has read the load running (--verbose lines show each read).
      const r = await cli(
        t.sb,
        ['loads', 'run', String(id), '--wait', '--poll-interval', '20ms', '-w', '101', '--verbose'],
        {
          signal: controller.signal,
          onStderr: (all) => {
            const started = all.indexOf('/run 202');
            if (started >= 0 && /GET \S*loads/.test(all.slice(started)) && !controller.signal.aborted)
              controller.abort(Object.assign(new Error('interrupted'), { name: 'InterruptedError' }));
          },
        },
      );
      expect(r.code).toBe(130);
      expect(r.stderr).toContain(
        `load ${id}: stopped waiting; it goes on at the service; follow it with \`edp loads get ${id} -w 101\``,
      );
    } finally {
      await control(t.sb, 'PATCH', '/faults', { build_seconds: 0 });
    }
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
