import { describe, expect, it } from 'vitest';
import { useSandbox } from '../../helpers.js';
import { demo } from '../../fixtures/extraction.js';

const t = useSandbox({ buildSeconds: 0 }, ['-w', '101']);

describe('edp extracts list', () => {
  it('lists every extract, with filters', async () => {
    const d = demo(t.sb);
    const all = await t.edp('extracts', 'list', '--json');
    expect(all.code).toBe(0);
    expect(all.json().length).toBeGreaterThan(0);
    const none = await t.edp('extracts', 'list', '--data-source', 'linkedin_ads', '--json');
    expect(none.json()).toEqual([]);
    const byTable = await t.edp(
      'extracts',
      'list',
      '--table',
      `${d.table.id},1`,
      '--connection',
      String(d.connection('google_ads').id),
      '--json',
    );
    expect(byTable.json().length).toBe(all.json().length);
    const limited = await t.edp('extracts', 'list', '--limit', '1', '--json');
    expect(limited.json()).toHaveLength(1);
    const lines = (await t.edp('extracts', 'list', '--ndjson')).stdout.trim().split('\n');
    expect(lines.map((l) => JSON.parse(l).id)).toEqual(all.json().map((e: any) => e.id));
    const bad = await t.edp('extracts', 'list', '--connection', 'abc');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--connection');
  });
});
