import { describe, expect, it } from 'vitest';
import { useSandbox } from '../../helpers.js';
import { roleId } from './fixtures.js';

const t = useSandbox({}, [], { each: true });

describe('edp roles delete', () => {
  it('requires --yes without a terminal (exit 2, kept)', async () => {
    const id = await roleId(t, 'Media Buyer');
    const r = await t.edp('roles', 'delete', String(id));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--yes');
    expect(await roleId(t, 'Media Buyer')).toBe(id);
  });

  it('refuses a system role (exit 4)', async () => {
    expect((await t.edp('roles', 'delete', String(await roleId(t, 'Viewer')), '--yes')).code).toBe(4);
  });

  it('deletes a custom role and reports the users moved to Viewer', async () => {
    const id = await roleId(t, 'Media Buyer');
    const r = await t.edp('roles', 'delete', String(id), '--yes');
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`Deleted role ${id}; 1 user moved to Viewer`);
    expect((await t.edp('roles', 'delete', String(id), '--yes', '--json')).code).toBe(5);
  });

  it('prints the exact answer with --json', async () => {
    const id = (await t.edp('roles', 'create', '--title', 'Short Lived', '--json')).json().id;
    const r = await t.edp('roles', 'delete', String(id), '--yes', '--json');
    expect(r.json()).toEqual({ reassigned_users_count: 0 });
  });
});
