import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { answerPrompts, cli, http, sandbox, tempDir } from '../helpers.js';

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
    // replacing the set removes EXTRACT:VIEW: off a terminal that needs --yes
    const p = await cli(sb, ['roles', 'update', String(id), '--permission', 'DATA_TABLE:EDIT', '--yes', '--json']);
    expect(p.json().permissions).toEqual([{ layer: 'DATA_TABLE', permission: 'EDIT' }]);
  });

  it('--add-permission and --remove-permission keep the role\'s other permissions', async () => {
    const id = String((await cli(sb, ['roles', 'create', '--title', 'Growing', '--permission', 'EXTRACT:VIEW', '--permission', 'LOAD:VIEW', '--json'])).json().id);
    const added = await cli(sb, ['roles', 'update', id, '--add-permission', 'extract:run', '--json']);
    expect(added.code).toBe(0);
    expect(added.json().permissions).toEqual([
      { layer: 'EXTRACT', permission: 'VIEW' },
      { layer: 'LOAD', permission: 'VIEW' },
      { layer: 'EXTRACT', permission: 'RUN' },
    ]);
    const both = await cli(sb, ['roles', 'update', id, '--remove-permission', 'LOAD:VIEW', '--add-permission', 'RECIPE:VIEW', '--add-permission', 'EXTRACT:RUN']);
    expect(both.code).toBe(0);
    const stored = (await http(sb, 'GET', `/api/v3/roles/${id}`, { basic: true })).body.permissions;
    expect(stored).toEqual([
      { layer: 'EXTRACT', permission: 'VIEW' },
      { layer: 'EXTRACT', permission: 'RUN' },
      { layer: 'RECIPE', permission: 'VIEW' },
    ]);
    const notHeld = await cli(sb, ['roles', 'update', id, '--remove-permission', 'LOAD:RUN']);
    expect(notHeld.code).toBe(0);
    expect(notHeld.stderr).toContain('the role does not have LOAD:RUN');
  });

  it('refuses mixing the whole set with additions, the same pair added and removed, and unknown additions (exit 2, nothing sent)', async () => {
    const id = String(await roleId('Media Buyer'));
    const before = (await http(sb, 'GET', `/api/v3/roles/${id}`, { basic: true })).body.permissions;
    const mixed = await cli(sb, ['roles', 'update', id, '--permission', 'EXTRACT:VIEW', '--add-permission', 'LOAD:RUN']);
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toContain('--add-permission');
    const clash = await cli(sb, ['roles', 'update', id, '--add-permission', 'LOAD:RUN', '--remove-permission', 'load:run']);
    expect(clash.code).toBe(2);
    const unknown = await cli(sb, ['roles', 'update', id, '--add-permission', 'LOAD:FLY']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('LOAD:FLY');
    expect((await http(sb, 'GET', `/api/v3/roles/${id}`, { basic: true })).body.permissions).toEqual(before);
  });

  it('--permission that removes permissions: exit 2 naming --yes and what it removes off a terminal; asks at one', async () => {
    const id = String((await cli(sb, ['roles', 'create', '--title', 'Replaced', '--permission', 'EXTRACT:VIEW', '--permission', 'EXTRACT:RUN', '--json'])).json().id);
    for (const env of [{}, { CI: '1' }]) {
      const refused = await cli(sb, ['roles', 'update', id, '--permission', 'EXTRACT:RUN'], { env, tty: 'CI' in env });
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('--yes');
      expect(refused.stderr).toContain('would remove EXTRACT:VIEW');
    }
    const noInput = await cli(sb, ['roles', 'update', id, '--permission', 'EXTRACT:RUN', '--no-input'], { tty: true });
    expect(noInput.code).toBe(2);
    const held = (await http(sb, 'GET', `/api/v3/roles/${id}`, { basic: true })).body.permissions;
    expect(held).toHaveLength(2);

    const env = { EDP_BASE_URL: sb.url, EDP_USERNAME: 'agency@sandbox.local', EDP_PASSWORD: 'sandbox', EDP_CONFIG_DIR: tmp.dir };
    const declined = await answerPrompts(['roles', 'update', id, '--permission', 'EXTRACT:RUN'], [['Remove EXTRACT:VIEW from role', 'n\r']], env);
    expect(declined.code).toBe(11);
    expect(declined.err).toContain('loses EXTRACT:VIEW');
    expect((await http(sb, 'GET', `/api/v3/roles/${id}`, { basic: true })).body.permissions).toHaveLength(2);
    const confirmed = await answerPrompts(['roles', 'update', id, '--permission', 'EXTRACT:RUN'], [['Remove EXTRACT:VIEW from role', 'y\r']], env);
    expect(confirmed.code).toBe(0);
    expect((await http(sb, 'GET', `/api/v3/roles/${id}`, { basic: true })).body.permissions).toEqual([{ layer: 'EXTRACT', permission: 'RUN' }]);
    // a set that only adds removes nothing: no question, no --yes
    const grows = await cli(sb, ['roles', 'update', id, '--permission', 'EXTRACT:RUN', '--permission', 'LOAD:VIEW']);
    expect(grows.code).toBe(0);
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
