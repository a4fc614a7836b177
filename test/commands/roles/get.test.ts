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

const roleId = async (title: string) =>
  (await http(sb, 'GET', '/api/v3/roles/', { basic: true })).body.results.find((r: any) => r.title === title)?.id;

describe('edp roles get', () => {
  it('shows a role on a terminal with its permissions as LAYER:PERMISSION', async () => {
    const id = await roleId('Media Buyer');
    const r = await cli(sb, ['roles', 'get', String(id)], { tty: true, env: { NO_COLOR: '1' } });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/kind\s+custom/);
    expect(r.stdout).toContain('EXTRACT:CREATE');
    const viewer = await cli(sb, ['roles', 'get', String(await roleId('Viewer'))], {
      tty: true,
      env: { NO_COLOR: '1' },
    });
    expect(viewer.stdout).toMatch(/kind\s+system \(read-only\)/);
    expect((await cli(sb, ['roles', 'get', '9999'])).code).toBe(5);
    expect((await cli(sb, ['roles', 'get', 'abc'])).code).toBe(2);
  });
});
