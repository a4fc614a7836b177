import { describe, expect, it } from 'vitest';
import { cli, useSandbox } from '../../helpers.js';

const t = useSandbox({ scale: 2 }, ['-w', '101'], { each: true });

describe('edp connections delete', () => {
  const activeAccounts = (connectionId: number) =>
    t.sb.store.state.accounts.filter((a) => a.connection_id === connectionId && a.is_active).length;

  it('without --yes off a terminal: exit 2 naming --yes, nothing deleted', async () => {
    const r = await t.edp('connections', 'delete', '1002');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--yes');
    expect(r.stderr).toContain('accounts become inactive');
    expect(activeAccounts(1002)).toBe(5);
  });

  it('on a terminal, declining keeps the connection (exit 11)', async () => {
    const r = await cli(t.sb, ['connections', 'delete', '1002', '-w', '101'], { tty: true, stdin: 'n\n' });
    expect(r.code).toBe(11);
    expect(r.stderr).toContain('Its accounts become inactive');
    expect(r.stderr).toContain('not confirmed; nothing was changed');
    expect(activeAccounts(1002)).toBe(5);
  });

  it('on a terminal, confirming deletes', async () => {
    const r = await cli(t.sb, ['connections', 'delete', '1002', '-w', '101'], { tty: true, stdin: 'y\n' });
    expect(r.code).toBe(0);
    expect(activeAccounts(1002)).toBe(0);
  });

  it('--yes deletes through the data source path and says what follows', async () => {
    const r = await t.edp('connections', 'delete', '1003', '--data-source', 'linkedin_ads', '--yes');
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('Deleted connection 1003: its accounts are now inactive and its extractions are paused');
    expect(activeAccounts(1003)).toBe(0);
  });

  it('--json prints the outcome; a repeated delete is 404 (exit 5)', async () => {
    const r = await t.edp('connections', 'delete', '1004', '--yes', '--json');
    expect(r.json()).toEqual({ connection_id: 1004, deleted: true });
    const again = await t.edp('connections', 'delete', '1004', '--yes', '--json');
    expect(again.code).toBe(5);
    expect(again.errorJson().error).toMatchObject({ status: 404, message: 'Connection not found.' });
  });

  it('a connection of another data source: 404 (exit 5); an unknown data source: 400 (exit 2)', async () => {
    expect((await t.edp('connections', 'delete', '1001', '--data-source', 'facebook_ads', '--yes')).code).toBe(5);
    expect((await t.edp('connections', 'delete', '1001', '--data-source', 'nope', '--yes')).code).toBe(2);
    expect(activeAccounts(1001)).toBe(5);
  });

  it('refuses a bad id before sending (exit 2)', async () => {
    const r = await t.edp('connections', 'delete', 'abc', '--yes');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('connection id');
  });
});
