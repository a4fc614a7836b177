import { describe, expect, it } from 'vitest';
import { cli, tempDir, useSandbox } from '../../helpers.js';

const t = useSandbox({ scale: 2 }, ['-w', '101']);

describe('authentication', () => {
  it('refused credentials: exit 3 with the status', async () => {
    const config = tempDir();
    try {
      const r = await cli(t.sb, ['connections', 'list', '--data-source', 'google_ads'], {
        env: { EDP_WORKSPACE: '101', EDP_PASSWORD: 'wrong', EDP_CONFIG_DIR: config.dir },
      });
      expect(r.code).toBe(3);
      expect(r.stderr).toContain('401');
    } finally {
      config.remove();
    }
  });
});

describe('edp connections list', () => {
  it('lists connections with account counts', async () => {
    const r = await t.edp('connections', 'list', '--data-source', 'google_ads', '--json');
    expect(r.code).toBe(0);
    expect(r.json().map((c: any) => [c.id, c.accounts_number, c.enabled_for_extraction_accounts_number])).toEqual([
      [1001, 6, 3],
      [1013, 200, 100],
    ]);
    const piped = await t.edp('connections', 'list', '--data-source', 'google_ads', '--limit', '1');
    expect(piped.stdout).toBe('1001\tGoogle Ads (Acme Retail)\t6\t3\n');
  });

  it('requires --data-source (exit 2)', async () => {
    const r = await t.edp('connections', 'list');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--data-source');
  });

  it('refuses a blank data source before sending (exit 2)', async () => {
    const r = await t.edp('connections', 'list', '--data-source', ' ');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--data-source');
  });

  it("an unknown data source is the service's 400 (exit 2)", async () => {
    const r = await t.edp('connections', 'list', '--data-source', 'nope');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/400: Unknown data source "nope"/);
  });
});
