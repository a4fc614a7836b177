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

describe('edp loads pause and unpause', () => {
  it('pauses (a run is then a conflict: exit 6) and unpauses', async () => {
    const id = await newLoad();
    expect((await edp('loads', 'pause', String(id), '--json')).json().status).toBe('paused');
    const r = await edp('loads', 'run', String(id));
    expect(r.code).toBe(6);
    expect(r.stderr).toContain('paused');
    expect((await edp('loads', 'unpause', String(id), '--json')).json().status).toBe('active');
  });
});
