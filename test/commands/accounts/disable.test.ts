import { describe, expect, it } from 'vitest';
import { useSandbox } from '../../helpers.js';

const t = useSandbox({ scale: 2 }, ['-w', '101']);

describe('edp accounts disable', () => {
  it('disables several at once and prints the accounts with --json', async () => {
    const r = await t.edp('accounts', 'disable', '--connection', '1001', '20001', '20002,20003', '--json');
    expect(r.code).toBe(0);
    expect(r.json().map((a: any) => [a.id, a.enabled_for_embedded_extraction])).toEqual([
      [20001, false],
      [20002, false],
      [20003, false],
    ]);
    const counts = await t.edp('connections', 'list', '--data-source', 'google_ads', '--json');
    expect(counts.json()[0].enabled_for_extraction_accounts_number).toBe(1);
  });

  it('needs --connection (exit 2)', async () => {
    const r = await t.edp('accounts', 'disable', '20001');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--connection');
  });
});
