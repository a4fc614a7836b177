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
const exists = (id: number) => sb.store.state.loads.some((l) => l.id === id);

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

describe('edp loads delete', () => {
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
