import { beforeAll, describe, expect, it } from 'vitest';
import { http, tokenFor, useSandbox } from '../../helpers.js';

const t = useSandbox({ scale: 2 }, ['-w', '101']);
beforeAll(async () => {
  // Account 20001 (enabled in the seed) starts disabled, so enabling it shows.
  const off = await http(t.sb, 'PATCH', '/api/v3/connections/1001/accounts/20001', {
    token: await tokenFor(t.sb, 101),
    body: { enabled_for_embedded_extraction: false },
  });
  expect(off.status).toBe(200);
});

describe('edp accounts enable', () => {
  const enabled = (id: number) => t.sb.store.state.accounts.find((a) => a.id === id)!.enabled_for_embedded_extraction;

  it('enables one account', async () => {
    const r = await t.edp('accounts', 'enable', '--connection', '1001', '20002');
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('Enabled extraction for 1 account of connection 1001');
    expect(enabled(20002)).toBe(true);
  });

  it('an account of another connection: 400 (exit 2) and nothing changes', async () => {
    const r = await t.edp('accounts', 'enable', '--connection', '1001', '20001', '20007');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('20007');
    expect(enabled(20001)).toBe(false);
  });

  it('one unknown account: 404 (exit 5)', async () => {
    const r = await t.edp('accounts', 'enable', '--connection', '1001', '20007');
    expect(r.code).toBe(5);
  });

  it('refuses a bad account id before sending (exit 2)', async () => {
    const r = await t.edp('accounts', 'enable', '--connection', '1001', '20001', 'abc');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('account id');
    expect(enabled(20001)).toBe(false);
  });
});
