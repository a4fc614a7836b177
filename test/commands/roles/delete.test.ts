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

describe('edp roles delete', () => {
  it('requires --yes without a terminal (exit 2, kept)', async () => {
    const id = await roleId('Media Buyer');
    const r = await cli(sb, ['roles', 'delete', String(id)]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--yes');
    expect(await roleId('Media Buyer')).toBe(id);
  });

  it('refuses a system role (exit 4)', async () => {
    expect((await cli(sb, ['roles', 'delete', String(await roleId('Viewer')), '--yes'])).code).toBe(4);
  });

  it('deletes a custom role and reports the users moved to Viewer', async () => {
    const id = await roleId('Media Buyer');
    const r = await cli(sb, ['roles', 'delete', String(id), '--yes']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`Deleted role ${id}; 1 user moved to Viewer`);
    expect((await cli(sb, ['roles', 'delete', String(id), '--yes', '--json'])).code).toBe(5);
  });

  it('prints the exact answer with --json', async () => {
    const id = (await cli(sb, ['roles', 'create', '--title', 'Short Lived', '--json'])).json().id;
    const r = await cli(sb, ['roles', 'delete', String(id), '--yes', '--json']);
    expect(r.json()).toEqual({ reassigned_users_count: 0 });
  });
});
