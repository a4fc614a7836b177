import { describe, expect, it } from 'vitest';
import { cli, useSandbox } from '../../helpers.js';

const t = useSandbox({ scale: 2 }, ['-w', '101']);
/** --scale 2: connection 1013 in workspace 101 holds 200 accounts (two pages). */
const BULK = '1013';

describe('edp accounts list', () => {
  it('lists every page (v3.1 objects) with --json', async () => {
    const r = await t.edp('accounts', 'list', '--connection', BULK, '--json');
    expect(r.code).toBe(0);
    const items = r.json();
    expect(items).toHaveLength(200);
    expect(items[0]).not.toHaveProperty('item');
    expect(items[0]).not.toHaveProperty('account_id');
    expect(items.map((a: any) => a.id)).toEqual([...items.map((a: any) => a.id)].sort((x: number, y: number) => x - y));
  });

  it('--limit stops early; --ndjson streams one per line', async () => {
    const r = await t.edp('accounts', 'list', '--connection', BULK, '--ndjson', '--limit', '150');
    expect(r.stdout.trim().split('\n')).toHaveLength(150);
  });

  it('--active keeps active accounts; --limit then counts those', async () => {
    const all = await t.edp('accounts', 'list', '--connection', '1001', '--active', '--json');
    expect(all.json().map((a: any) => a.id)).toEqual([20001, 20002, 20003, 20004, 20005]);
    const two = await t.edp('accounts', 'list', '--connection', '1001', '--active', '--limit', '2', '--json');
    expect(two.json()).toHaveLength(2);
  });

  it('--search matches titles, and ids for digits', async () => {
    const r = await t.edp('accounts', 'list', '--connection', '1001', '--search', 'RETARGETING', '--json');
    expect(r.json().map((a: any) => a.title)).toEqual(['Retargeting 123-456-7803']);
    const byId = await t.edp('accounts', 'list', '--connection', '1001', '--search', '20004', '--json');
    expect(byId.json().map((a: any) => a.id)).toEqual([20004]);
    const none = await cli(t.sb, ['accounts', 'list', '--connection', '1001', '--search', 'zzz', '-w', '101'], {
      tty: true,
    });
    expect(none.stderr).toContain('No accounts matching "zzz" in connection 1001.');
  });

  it('a terminal table has id, title, active, enabled for extraction, currency; --remote adds the remote id', async () => {
    const r = await cli(t.sb, ['accounts', 'list', '--connection', '1001', '-w', '101', '--remote'], { tty: true });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/ID.*TITLE.*ACTIVE.*ENABLED FOR EXTRACTION.*CURRENCY.*REMOTE ACCOUNT_ID/);
    expect(r.stdout).toMatch(/20001.*Brand 123-456-7801.*yes.*yes.*USD.*123-456-7801/);
    const json = await t.edp('accounts', 'list', '--connection', '1001', '--remote', '--json');
    expect(json.json()[5]).toMatchObject({ id: 20006, account_id: '123-456-7806', is_active: false });
  });

  it('a connection of another workspace: 404 not_found (exit 5)', async () => {
    const r = await cli(t.sb, ['accounts', 'list', '--connection', '1001', '-w', '102', '--json']);
    expect(r.code).toBe(5);
    expect(r.errorJson().error).toMatchObject({ status: 404, code: 'not_found' });
  });

  it('refuses a bad --connection before sending (exit 2)', async () => {
    const r = await t.edp('accounts', 'list', '--connection', 'x1');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--connection');
  });
});
