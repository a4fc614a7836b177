import { describe, expect, it } from 'vitest';
import { http, useSandbox } from '../../helpers.js';

const t = useSandbox();

describe('edp roles permissions', () => {
  it('prints the permission catalog: exact JSON, or one row per permission', async () => {
    const json = await t.edp('roles', 'permissions', '--json');
    expect(json.code).toBe(0);
    expect(json.json()[0].layer).toBe('WORKSPACE');
    const rows = await t.edp('roles', 'permissions');
    expect(rows.stdout.split('\n')[0]).toMatch(/^WORKSPACE:VIEW\t/);
    expect(rows.stdout).toContain('EXTRACT:CREATE\tCreate extracts\t');
  });

  it('maps the agency flag being off to exit 4', async () => {
    await http(t.sb, 'PATCH', '/_sandbox/agency', { body: { can_use_embedded_api: false } });
    try {
      const r = await t.edp('roles', 'permissions');
      expect(r.code).toBe(4);
      expect(r.stderr).toContain('embedded API');
    } finally {
      await http(t.sb, 'PATCH', '/_sandbox/agency', { body: { can_use_embedded_api: true } });
    }
  });
});
