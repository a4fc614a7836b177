import { describe, expect, it } from 'vitest';
import { useSandbox } from '../../helpers.js';
import { roleId } from './fixtures.js';

const t = useSandbox();

describe('edp roles users', () => {
  it("lists a role's users with their workspaces", async () => {
    const r = await t.edp('roles', 'users', String(await roleId(t, 'Viewer')), '--json');
    expect(r.code).toBe(0);
    expect(r.json().map((u: any) => u.email)).toEqual(['former@sandbox.local', 'editor@sandbox.local']);
    const rows = await t.edp('roles', 'users', String(await roleId(t, 'Workspace Admin')));
    expect(rows.stdout).toContain('101 Acme Retail, 102 Globex Media, 103 Initech Apps');
    expect((await t.edp('roles', 'users', '9999')).code).toBe(5);
  });
});
