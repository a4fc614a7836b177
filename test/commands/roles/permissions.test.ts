import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { cli, http, sandbox, tempDir } from '../../helpers.js';

let sb: Sandbox;
const tmp = tempDir('edp-roles-');
beforeAll(async () => {
  sb = await sandbox();
});
afterAll(async () => {
  await sb.close();
  tmp.remove();
});

describe('edp roles permissions', () => {
  it('prints the permission catalog: exact JSON, or one row per permission', async () => {
    const json = await cli(sb, ['roles', 'permissions', '--json']);
    expect(json.code).toBe(0);
    expect(json.json()[0].layer).toBe('WORKSPACE');
    const rows = await cli(sb, ['roles', 'permissions']);
    expect(rows.stdout.split('\n')[0]).toMatch(/^WORKSPACE:VIEW\t/);
    expect(rows.stdout).toContain('EXTRACT:CREATE\tCreate extracts\t');
  });

  it('maps the agency flag being off to exit 4', async () => {
    await http(sb, 'PATCH', '/_sandbox/agency', { body: { can_use_embedded_api: false } });
    try {
      const r = await cli(sb, ['roles', 'permissions']);
      expect(r.code).toBe(4);
      expect(r.stderr).toContain('embedded API');
    } finally {
      await http(sb, 'PATCH', '/_sandbox/agency', { body: { can_use_embedded_api: true } });
    }
  });
});
