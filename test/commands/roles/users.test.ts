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

describe('edp roles users', () => {
  it("lists a role's users with their workspaces", async () => {
    const r = await cli(sb, ['roles', 'users', String(await roleId('Viewer')), '--json']);
    expect(r.code).toBe(0);
    expect(r.json().map((u: any) => u.email)).toEqual(['former@sandbox.local', 'editor@sandbox.local']);
    const rows = await cli(sb, ['roles', 'users', String(await roleId('Workspace Admin'))]);
    expect(rows.stdout).toContain('101 Acme Retail, 102 Globex Media, 103 Initech Apps');
    expect((await cli(sb, ['roles', 'users', '9999'])).code).toBe(5);
  });
});
