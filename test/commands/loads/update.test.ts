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

describe('edp loads update', () => {
  it('updates only the named parts (the rest is read and sent back whole)', async () => {
    const id = await newLoad('--title', 'Keep me');
    const r = await edp('loads', 'update', String(id), '--schedule', 'hourly', '--json');
    expect(r.json()).toMatchObject({ title: 'Keep me', schedule: 'hourly' });
    expect((await edp('loads', 'update', String(id))).code).toBe(2);
    expect((await edp('loads', 'update', String(id), '--schedule', 'sometimes')).code).toBe(2);
  });
});
