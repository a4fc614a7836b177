import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { cli, http, sandbox, tempDir } from '../helpers.js';

let sb: Sandbox;
const tmp = tempDir('edp-roles-');
beforeAll(async () => {
  sb = await sandbox();
});
afterAll(async () => {
  await sb.close();
  tmp.remove();
});

const roleCount = async () => (await http(sb, 'GET', '/api/v3/roles/', { basic: true })).body.count as number;
const roleId = async (title: string) => (await http(sb, 'GET', '/api/v3/roles/', { basic: true })).body.results.find((r: any) => r.title === title)?.id;

describe('edp roles list, get, users, permissions', () => {
  it('lists roles with kind and user count, system roles marked', async () => {
    const r = await cli(sb, ['roles', 'list']);
    expect(r.code).toBe(0);
    const rows = r.stdout.split('\n').filter(Boolean).map((l) => l.split('\t'));
    expect(rows.find((x) => x[1] === 'Viewer')!.slice(2, 4)).toEqual(['system', '2']);
    expect(rows.find((x) => x[1] === 'Media Buyer')!.slice(2, 4)).toEqual(['custom', '1']);
    expect((await cli(sb, ['roles', 'list', '--json', '--limit', '2'])).json()).toHaveLength(2);
  });

  it('shows a role on a terminal with its permissions as LAYER:PERMISSION', async () => {
    const id = await roleId('Media Buyer');
    const r = await cli(sb, ['roles', 'get', String(id)], { tty: true, env: { NO_COLOR: '1' } });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/kind\s+custom/);
    expect(r.stdout).toContain('EXTRACT:CREATE');
    const viewer = await cli(sb, ['roles', 'get', String(await roleId('Viewer'))], { tty: true, env: { NO_COLOR: '1' } });
    expect(viewer.stdout).toMatch(/kind\s+system \(read-only\)/);
    expect((await cli(sb, ['roles', 'get', '9999'])).code).toBe(5);
    expect((await cli(sb, ['roles', 'get', 'abc'])).code).toBe(2);
  });

  it('lists a role\'s users with their workspaces', async () => {
    const r = await cli(sb, ['roles', 'users', String(await roleId('Viewer')), '--json']);
    expect(r.code).toBe(0);
    expect(r.json().map((u: any) => u.email)).toEqual(['former@sandbox.local', 'editor@sandbox.local']);
    const rows = await cli(sb, ['roles', 'users', String(await roleId('Workspace Admin'))]);
    expect(rows.stdout).toContain('101 Acme Retail, 102 Globex Media, 103 Initech Apps');
    expect((await cli(sb, ['roles', 'users', '9999'])).code).toBe(5);
  });

  it('prints the permission catalog: exact JSON, or one row per permission', async () => {
    const json = await cli(sb, ['roles', 'permissions', '--json']);
    expect(json.code).toBe(0);
    expect(json.json()[0].layer).toBe('WORKSPACE');
    const rows = await cli(sb, ['roles', 'permissions']);
    expect(rows.stdout.split('\n')[0]).toMatch(/^WORKSPACE:VIEW\t/);
    expect(rows.stdout).toContain('EXTRACT:CREATE\tCreate extracts\t');
  });

  it('maps a non-chief user to exit 4 and wrong credentials to exit 3', async () => {
    const analyst = await cli(sb, ['roles', 'list'], { env: { EDP_USERNAME: 'analyst@sandbox.local', EDP_PASSWORD: 'sandbox' } });
    expect(analyst.code).toBe(4);
    expect(analyst.stderr).toContain('403');
    expect(analyst.stderr).toContain('agency chief');
    const wrong = await cli(sb, ['roles', 'list'], { env: { EDP_PASSWORD: 'wrong' } });
    expect(wrong.code).toBe(3);
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

describe('edp roles create', () => {
  it('creates a role from repeated --permission flags (LAYER:PERM or LAYER.PERM, any case)', async () => {
    const r = await cli(sb, ['roles', 'create', '--title', 'Loader', '--description', 'runs loads', '--permission', 'LOAD:RUN', '--permission', 'load.view', '--json']);
    expect(r.code).toBe(0);
    expect(r.json()).toMatchObject({ title: 'Loader', description: 'runs loads', is_system: false, permissions: [{ layer: 'LOAD', permission: 'RUN' }, { layer: 'LOAD', permission: 'VIEW' }] });
  });

  it('creates a role from a YAML file; flags win over it', async () => {
    const file = join(tmp.dir, 'role.yaml');
    writeFileSync(file, 'title: From File\ndescription: file text\npermissions:\n  - RECIPE:VIEW\n  - {layer: RECIPE, permission: BUILD}\n');
    const r = await cli(sb, ['roles', 'create', '--file', file, '--title', 'From Flags', '--json']);
    expect(r.code).toBe(0);
    expect(r.json()).toMatchObject({ title: 'From Flags', description: 'file text', permissions: [{ layer: 'RECIPE', permission: 'VIEW' }, { layer: 'RECIPE', permission: 'BUILD' }] });
  });

  it('refuses permissions outside the catalog before writing (exit 2)', async () => {
    const before = await roleCount();
    const r = await cli(sb, ['roles', 'create', '--title', 'Nope', '--permission', 'EXTRACT:FLY', '--permission', 'MOON:VIEW']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('EXTRACT:FLY: layer EXTRACT has no permission FLY');
    expect(r.stderr).toContain('MOON:VIEW: no layer MOON');
    expect(await roleCount()).toBe(before);
  });

  it('refuses malformed input before sending (exit 2)', async () => {
    const before = await roleCount();
    const cases: Array<[string[], string]> = [
      [['roles', 'create', '--permission', 'EXTRACT:VIEW'], '--title'],
      [['roles', 'create', '--title', '  '], '--title'],
      [['roles', 'create', '--title', 'X', '--permission', 'EXTRACT'], '--permission'],
      [['roles', 'create', '--file', join(tmp.dir, 'missing.json')], 'no such file'],
    ];
    const badKeys = join(tmp.dir, 'bad.json');
    writeFileSync(badKeys, JSON.stringify({ title: 'x', perms: [] }));
    cases.push([['roles', 'create', '--file', badKeys], 'unknown key perms']);
    for (const [argv, message] of cases) {
      const r = await cli(sb, argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr).toContain(message);
    }
    expect(await roleCount()).toBe(before);
  });

  it('maps a duplicate title to exit 6', async () => {
    const r = await cli(sb, ['roles', 'create', '--title', 'Editor']);
    expect(r.code).toBe(6);
    expect(r.stderr).toContain('409');
    expect(r.stderr).toContain('already exists');
  });
});

describe('edp roles update', () => {
  it('changes only what is given', async () => {
    const id = (await cli(sb, ['roles', 'create', '--title', 'Changing', '--permission', 'EXTRACT:VIEW', '--json'])).json().id;
    const r = await cli(sb, ['roles', 'update', String(id), '--description', 'now described', '--json']);
    expect(r.code).toBe(0);
    expect(r.json()).toMatchObject({ title: 'Changing', description: 'now described', permissions: [{ layer: 'EXTRACT', permission: 'VIEW' }] });
    const p = await cli(sb, ['roles', 'update', String(id), '--permission', 'DATA_TABLE:EDIT', '--json']);
    expect(p.json().permissions).toEqual([{ layer: 'DATA_TABLE', permission: 'EDIT' }]);
  });

  it('refuses an update with nothing to change, and unknown permissions (exit 2)', async () => {
    const id = await roleId('Media Buyer');
    expect((await cli(sb, ['roles', 'update', String(id)])).stderr).toContain('nothing to change');
    const r = await cli(sb, ['roles', 'update', String(id), '--permission', 'RECIPE:EAT']);
    expect(r.code).toBe(2);
  });

  it('maps a system role to exit 4, a taken title to exit 6 and a missing role to exit 5', async () => {
    const sys = await cli(sb, ['roles', 'update', String(await roleId('Editor')), '--description', 'x']);
    expect(sys.code).toBe(4);
    expect(sys.stderr).toContain('system role');
    expect((await cli(sb, ['roles', 'update', String(await roleId('Media Buyer')), '--title', 'Viewer'])).code).toBe(6);
    expect((await cli(sb, ['roles', 'update', '9999', '--title', 'Q'])).code).toBe(5);
  });
});

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
