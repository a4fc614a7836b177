import { describe, expect, it } from 'vitest';
import { useSandbox } from '../../helpers.js';
import { demo } from '../../fixtures/extraction.js';
import { newLoad } from './fixtures.js';

const t = useSandbox({ buildSeconds: 0 }, ['-w', '101']);

describe('edp loads create', () => {
  it("creates a load; a table of another workspace is the service's 400 (exit 2)", async () => {
    const id = await newLoad(t, '--title', 'Nightly', '--schedule', 'weekly');
    expect(t.sb.store.state.loads.find((l) => l.id === id)).toMatchObject({ title: 'Nightly', schedule: 'weekly' });
    const r = await t.edp(
      'loads',
      'create',
      '--table',
      String(demo(t.sb, 102).table.id),
      '--destination-connection',
      String(demo(t.sb).s3.id),
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('data_table_id');
    expect((await t.edp('loads', 'create', '--table', 'x', '--destination-connection', '1')).code).toBe(2);
  });
});
