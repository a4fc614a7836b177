import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { cli, sandbox, tempDir } from '../helpers.js';

let sb: Sandbox;
/** --scale 2: connection 1013 in workspace 101 holds 200 accounts (two pages). */
const BULK = '1013';
beforeAll(async () => {
  sb = await sandbox({ scale: 2 });
});
afterAll(() => sb.close());

const ws101 = { env: { EDP_WORKSPACE: '101' } };
const edp = (argv: string[], opts: Parameters<typeof cli>[2] = ws101) => cli(sb, argv, opts);

describe('edp datasources list', () => {
  it('lists name, title and category', async () => {
    const r = await edp(['datasources', 'list', '--json']);
    expect(r.code).toBe(0);
    expect(r.json().map((d: any) => d.name)).toEqual(['facebook_ads', 'google_ads', 'google_analytics_4', 'linkedin_ads']);
    const piped = await edp(['datasources', 'list']);
    expect(piped.stdout.split('\n')[0]).toBe('facebook_ads\tFacebook Ads\tAdvertising');
  });

  it('needs a workspace (exit 2, names -w)', async () => {
    const r = await edp(['datasources', 'list'], {});
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('-w/--workspace');
  });

  it('shows a table on a terminal', async () => {
    const r = await edp(['datasources', 'list', '-w', '101'], { tty: true });
    expect(r.stdout).toMatch(/NAME.*TITLE.*CATEGORY/);
    expect(r.stdout).toContain('Web Analytics');
  });
});

describe('authentication', () => {
  it('refused credentials: exit 3 with the status', async () => {
    const config = tempDir();
    try {
      const r = await edp(['connections', 'list', '--data-source', 'google_ads'], { env: { EDP_WORKSPACE: '101', EDP_PASSWORD: 'wrong', EDP_CONFIG_DIR: config.dir } });
      expect(r.code).toBe(3);
      expect(r.stderr).toContain('401');
    } finally {
      config.remove();
    }
  });
});

describe('edp connections list', () => {
  it('lists connections with account counts', async () => {
    const r = await edp(['connections', 'list', '--data-source', 'google_ads', '--json']);
    expect(r.code).toBe(0);
    expect(r.json().map((c: any) => [c.id, c.accounts_number, c.enabled_for_extraction_accounts_number])).toEqual([[1001, 6, 3], [1013, 200, 100]]);
    const piped = await edp(['connections', 'list', '--data-source', 'google_ads', '--limit', '1']);
    expect(piped.stdout).toBe('1001\tGoogle Ads (Acme Retail)\t6\t3\n');
  });

  it('requires --data-source (exit 2)', async () => {
    const r = await edp(['connections', 'list']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--data-source');
  });

  it('refuses a blank data source before sending (exit 2)', async () => {
    const r = await edp(['connections', 'list', '--data-source', ' ']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--data-source');
  });

  it('an unknown data source is the service\'s 400 (exit 2)', async () => {
    const r = await edp(['connections', 'list', '--data-source', 'nope']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/400: Unknown data source "nope"/);
  });
});

describe('edp connections delete', () => {
  const activeAccounts = (connectionId: number) => sb.store.state.accounts.filter((a) => a.connection_id === connectionId && a.is_active).length;

  it('without --yes off a terminal: exit 2 naming --yes, nothing deleted', async () => {
    const r = await edp(['connections', 'delete', '1002']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--yes');
    expect(r.stderr).toContain('accounts become inactive');
    expect(activeAccounts(1002)).toBe(5);
  });

  it('on a terminal, declining keeps the connection (exit 11)', async () => {
    const r = await edp(['connections', 'delete', '1002', '-w', '101'], { tty: true, stdin: 'n\n' });
    expect(r.code).toBe(11);
    expect(r.stderr).toContain('Its accounts become inactive');
    expect(r.stderr).toContain('not confirmed; nothing was changed');
    expect(activeAccounts(1002)).toBe(5);
  });

  it('on a terminal, confirming deletes', async () => {
    const r = await edp(['connections', 'delete', '1002', '-w', '101'], { tty: true, stdin: 'y\n' });
    expect(r.code).toBe(0);
    expect(activeAccounts(1002)).toBe(0);
  });

  it('--yes deletes through the data source path and says what follows', async () => {
    const r = await edp(['connections', 'delete', '1003', '--data-source', 'linkedin_ads', '--yes']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('Deleted connection 1003: its accounts are now inactive and its extractions are paused');
    expect(activeAccounts(1003)).toBe(0);
  });

  it('--json prints the outcome; a repeated delete is 404 (exit 5)', async () => {
    const r = await edp(['connections', 'delete', '1004', '--yes', '--json']);
    expect(r.json()).toEqual({ connection_id: 1004, deleted: true });
    const again = await edp(['connections', 'delete', '1004', '--yes', '--json']);
    expect(again.code).toBe(5);
    expect(again.errorJson().error).toMatchObject({ status: 404, message: 'Connection not found.' });
  });

  it('a connection of another data source: 404 (exit 5); an unknown data source: 400 (exit 2)', async () => {
    expect((await edp(['connections', 'delete', '1001', '--data-source', 'facebook_ads', '--yes'])).code).toBe(5);
    expect((await edp(['connections', 'delete', '1001', '--data-source', 'nope', '--yes'])).code).toBe(2);
    expect(activeAccounts(1001)).toBe(5);
  });

  it('refuses a bad id before sending (exit 2)', async () => {
    const r = await edp(['connections', 'delete', 'abc', '--yes']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('connection id');
  });
});

describe('edp accounts list', () => {
  it('lists every page (v3.1 objects) with --json', async () => {
    const r = await edp(['accounts', 'list', '--connection', BULK, '--json']);
    expect(r.code).toBe(0);
    const items = r.json();
    expect(items).toHaveLength(200);
    expect(items[0]).not.toHaveProperty('item');
    expect(items[0]).not.toHaveProperty('account_id');
    expect(items.map((a: any) => a.id)).toEqual([...items.map((a: any) => a.id)].sort((x: number, y: number) => x - y));
  });

  it('--limit stops early; --ndjson streams one per line', async () => {
    const r = await edp(['accounts', 'list', '--connection', BULK, '--ndjson', '--limit', '150']);
    expect(r.stdout.trim().split('\n')).toHaveLength(150);
  });

  it('--active keeps active accounts; --limit then counts those', async () => {
    const all = await edp(['accounts', 'list', '--connection', '1001', '--active', '--json']);
    expect(all.json().map((a: any) => a.id)).toEqual([20001, 20002, 20003, 20004, 20005]);
    const two = await edp(['accounts', 'list', '--connection', '1001', '--active', '--limit', '2', '--json']);
    expect(two.json()).toHaveLength(2);
  });

  it('--search matches titles, and ids for digits', async () => {
    const r = await edp(['accounts', 'list', '--connection', '1001', '--search', 'RETARGETING', '--json']);
    expect(r.json().map((a: any) => a.title)).toEqual(['Retargeting 123-456-7803']);
    const byId = await edp(['accounts', 'list', '--connection', '1001', '--search', '20004', '--json']);
    expect(byId.json().map((a: any) => a.id)).toEqual([20004]);
    const none = await edp(['accounts', 'list', '--connection', '1001', '--search', 'zzz', '-w', '101'], { tty: true });
    expect(none.stderr).toContain('No accounts matching "zzz" in connection 1001.');
  });

  it('a terminal table has id, title, active, enabled for extraction, currency; --remote adds the remote id', async () => {
    const r = await edp(['accounts', 'list', '--connection', '1001', '-w', '101', '--remote'], { tty: true });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/ID.*TITLE.*ACTIVE.*ENABLED FOR EXTRACTION.*CURRENCY.*REMOTE ACCOUNT_ID/);
    expect(r.stdout).toMatch(/20001.*Brand 123-456-7801.*yes.*yes.*USD.*123-456-7801/);
    const json = await edp(['accounts', 'list', '--connection', '1001', '--remote', '--json']);
    expect(json.json()[5]).toMatchObject({ id: 20006, account_id: '123-456-7806', is_active: false });
  });

  it('a connection of another workspace: 404 not_found (exit 5)', async () => {
    const r = await edp(['accounts', 'list', '--connection', '1001', '-w', '102', '--json']);
    expect(r.code).toBe(5);
    expect(r.errorJson().error).toMatchObject({ status: 404, code: 'not_found' });
  });

  it('refuses a bad --connection before sending (exit 2)', async () => {
    const r = await edp(['accounts', 'list', '--connection', 'x1']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--connection');
  });
});

describe('edp accounts enable|disable', () => {
  const enabled = (id: number) => sb.store.state.accounts.find((a) => a.id === id)!.enabled_for_embedded_extraction;

  it('enables one account', async () => {
    const r = await edp(['accounts', 'enable', '--connection', '1001', '20002']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('Enabled extraction for 1 account of connection 1001');
    expect(enabled(20002)).toBe(true);
  });

  it('disables several at once and prints the accounts with --json', async () => {
    const r = await edp(['accounts', 'disable', '--connection', '1001', '20001', '20002,20003', '--json']);
    expect(r.code).toBe(0);
    expect(r.json().map((a: any) => [a.id, a.enabled_for_embedded_extraction])).toEqual([[20001, false], [20002, false], [20003, false]]);
    const counts = await edp(['connections', 'list', '--data-source', 'google_ads', '--json']);
    expect(counts.json()[0].enabled_for_extraction_accounts_number).toBe(1);
  });

  it('an account of another connection: 400 (exit 2) and nothing changes', async () => {
    const r = await edp(['accounts', 'enable', '--connection', '1001', '20001', '20007']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('20007');
    expect(enabled(20001)).toBe(false);
  });

  it('one unknown account: 404 (exit 5)', async () => {
    const r = await edp(['accounts', 'enable', '--connection', '1001', '20007']);
    expect(r.code).toBe(5);
  });

  it('refuses a bad account id before sending (exit 2)', async () => {
    const r = await edp(['accounts', 'enable', '--connection', '1001', '20001', 'abc']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('account id');
    expect(enabled(20001)).toBe(false);
  });

  it('needs --connection (exit 2)', async () => {
    const r = await edp(['accounts', 'disable', '20001']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--connection');
  });
});
