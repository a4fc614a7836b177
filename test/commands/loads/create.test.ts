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

describe('edp loads create', () => {
  it("creates a load; a table of another workspace is the service's 400 (exit 2)", async () => {
    const id = await newLoad('--title', 'Nightly', '--schedule', 'weekly');
    expect(sb.store.state.loads.find((l) => l.id === id)).toMatchObject({ title: 'Nightly', schedule: 'weekly' });
    const r = await edp(
      'loads',
      'create',
      '--table',
      String(demo(sb, 102).table.id),
      '--destination-connection',
      String(demo(sb).s3.id),
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('data_table_id');
    expect((await edp('loads', 'create', '--table', 'x', '--destination-connection', '1')).code).toBe(2);
  });
});
