import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { cli, sandbox } from '../../helpers.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox({ scale: 2 });
});
afterAll(() => sb.close());

const ws101 = { env: { EDP_WORKSPACE: '101' } };
const edp = (argv: string[], opts: Parameters<typeof cli>[2] = ws101) => cli(sb, argv, opts);

describe('edp accounts disable', () => {
  it('disables several at once and prints the accounts with --json', async () => {
    const r = await edp(['accounts', 'disable', '--connection', '1001', '20001', '20002,20003', '--json']);
    expect(r.code).toBe(0);
    expect(r.json().map((a: any) => [a.id, a.enabled_for_embedded_extraction])).toEqual([
      [20001, false],
      [20002, false],
      [20003, false],
    ]);
    const counts = await edp(['connections', 'list', '--data-source', 'google_ads', '--json']);
    expect(counts.json()[0].enabled_for_extraction_accounts_number).toBe(1);
  });

  it('needs --connection (exit 2)', async () => {
    const r = await edp(['accounts', 'disable', '20001']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--connection');
  });
});
