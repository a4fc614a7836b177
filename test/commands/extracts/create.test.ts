import { describe, expect, it } from 'vitest';
import { useSandbox } from '../../helpers.js';
import { demo } from '../../fixtures/extraction.js';
import { created } from './fixtures.js';

const t = useSandbox({ buildSeconds: 0 }, ['-w', '101']);

describe('edp extracts create', () => {
  it('creates an extract (v3.1 path) that runs and delivers', async () => {
    const e = await created(t, '--sync-historical-data', '2024-01-01', '--schedule', 'hourly', '--title', 'FB history');
    expect(e).toMatchObject({ title: 'FB history', schedule: 'hourly', sync_historical_data: '2024-01-01' });
    const run = await t.edp('extracts', 'get', String(e.id), '--json');
    expect(['running', 'completed']).toContain(run.json().status);
  });

  it("refuses bad create input locally (exit 2), and shows the service's 400 for an inactive account", async () => {
    const d = demo(t.sb);
    const before = t.sb.store.state.extracts.length;
    expect((await t.edp('extracts', 'create', '--template', '301', '--account', 'x')).code).toBe(2);
    const schedule = await t.edp('extracts', 'create', '--template', '301', '--account', '1', '--schedule', 'often');
    expect(schedule.code).toBe(2);
    expect(schedule.stderr).toContain('--schedule');
    expect(t.sb.store.state.extracts.length).toBe(before);
    const inactive = await t.edp(
      'extracts',
      'create',
      '--template',
      String(d.template('google_ads', false).id),
      '--account',
      String(d.accounts('google_ads').at(-1)!.id),
    );
    expect(inactive.code).toBe(2);
    expect(inactive.stderr).toMatch(/400: account_embedded_id: account \d+ is inactive/);
    expect(inactive.stderr).toMatch(/trace id: [0-9a-f]+/);
  });
});
