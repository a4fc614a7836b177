import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { cli, sandbox } from '../../helpers.js';
import { demo } from '../../fixtures/extraction.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox({ buildSeconds: 0.05 });
});
afterAll(() => sb.close());

const edp = (...argv: string[]) => cli(sb, [...argv, '-w', '101']);

describe('edp extracts list', () => {
  it('lists every extract, with filters', async () => {
    const d = demo(sb);
    const all = await edp('extracts', 'list', '--json');
    expect(all.code).toBe(0);
    expect(all.json().length).toBeGreaterThan(0);
    const none = await edp('extracts', 'list', '--data-source', 'linkedin_ads', '--json');
    expect(none.json()).toEqual([]);
    const byTable = await edp(
      'extracts',
      'list',
      '--table',
      `${d.table.id},1`,
      '--connection',
      String(d.connection('google_ads').id),
      '--json',
    );
    expect(byTable.json().length).toBe(all.json().length);
    const limited = await edp('extracts', 'list', '--limit', '1', '--json');
    expect(limited.json()).toHaveLength(1);
    const lines = (await edp('extracts', 'list', '--ndjson')).stdout.trim().split('\n');
    expect(lines.map((l) => JSON.parse(l).id)).toEqual(all.json().map((e: any) => e.id));
    const bad = await edp('extracts', 'list', '--connection', 'abc');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--connection');
  });
});
