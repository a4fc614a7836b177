import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { cli, sandbox } from '../../helpers.js';
import { demo } from '../../fixtures/extraction.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox({ buildSeconds: 0.05 });
});
afterAll(() => sb.close());

const SECRET = 'wJalrXUtnFEMI-K7MDENG-bPxRfiCY';
const edp = (argv: string[], opts: Parameters<typeof cli>[2] = {}) => cli(sb, [...argv, '-w', '101'], opts);

async function lake() {
  const r = await edp(
    [
      'destinations',
      'connections',
      'create',
      '--destination',
      's3',
      '--title',
      'Lake',
      '--bucket',
      'lake',
      '--region',
      'eu-west-1',
      '--aws-access-key-id',
      'AKIA1',
      '--secret-stdin',
      '--json',
    ],
    { stdin: SECRET },
  );
  return r.json().id as number;
}

describe('edp destinations connections recheck', () => {
  it('reports a failing check, and recheck shows the status', async () => {
    const id = await lake();
    const bad = await edp([
      'destinations',
      'connections',
      'update',
      String(id),
      '--destination',
      's3',
      '--bucket',
      'invalid-lake',
      '--json',
    ]);
    expect(bad.json()).toMatchObject({ status: 'error', error_text: expect.stringContaining('invalid-lake') });
    const recheck = await edp(['destinations', 'connections', 'recheck', String(id), '--destination', 's3']);
    expect(recheck.code).toBe(0);
    expect(recheck.stderr).toContain('is error');
    const ok = await edp(['destinations', 'connections', 'recheck', String(demo(sb).s3.id), '--destination', 's3']);
    expect(ok.stderr).toContain('is active');
  });
});
