import { afterAll, describe, expect, it } from 'vitest';
import { answerPrompts, cli, http, parse, tempDir, useSandbox } from '../../helpers.js';
import { roleId } from './fixtures.js';

const t = useSandbox();
const tmp = tempDir('edp-roles-');
afterAll(() => tmp.remove());

describe('edp roles update', () => {
  it('collects repeated permission flags in order', async () => {
    const { parsed } = await parse([
      'roles',
      'update',
      '5',
      '--add-permission',
      'A:B',
      '--add-permission',
      'C:D',
      '--remove-permission',
      'E:F',
      '--file',
      'role.yaml',
      '-y',
    ]);
    expect(parsed?.opts).toEqual({
      args: ['5'],
      addPermission: ['A:B', 'C:D'],
      removePermission: ['E:F'],
      file: 'role.yaml',
      yes: true,
    });
  });

  it('changes only what is given', async () => {
    const id = (await t.edp('roles', 'create', '--title', 'Changing', '--permission', 'EXTRACT:VIEW', '--json')).json()
      .id;
    const r = await t.edp('roles', 'update', String(id), '--description', 'now described', '--json');
    expect(r.code).toBe(0);
    expect(r.json()).toMatchObject({
      title: 'Changing',
      description: 'now described',
      permissions: [{ layer: 'EXTRACT', permission: 'VIEW' }],
    });
    // replacing the set removes EXTRACT:VIEW: off a terminal that needs --yes
    const p = await t.edp('roles', 'update', String(id), '--permission', 'DATA_TABLE:EDIT', '--yes', '--json');
    expect(p.json().permissions).toEqual([{ layer: 'DATA_TABLE', permission: 'EDIT' }]);
  });

  it("--add-permission and --remove-permission keep the role's other permissions", async () => {
    const id = String(
      (
        await t.edp(
          'roles',
          'create',
          '--title',
          'Growing',
          '--permission',
          'EXTRACT:VIEW',
          '--permission',
          'LOAD:VIEW',
          '--json',
        )
      ).json().id,
    );
    const added = await t.edp('roles', 'update', id, '--add-permission', 'extract:run', '--json');
    expect(added.code).toBe(0);
    expect(added.json().permissions).toEqual([
      { layer: 'EXTRACT', permission: 'VIEW' },
      { layer: 'LOAD', permission: 'VIEW' },
      { layer: 'EXTRACT', permission: 'RUN' },
    ]);
    const both = await t.edp(
      'roles',
      'update',
      id,
      '--remove-permission',
      'LOAD:VIEW',
      '--add-permission',
      'RECIPE:VIEW',
      '--add-permission',
      'EXTRACT:RUN',
    );
    expect(both.code).toBe(0);
    const stored = (await http(t.sb, 'GET', `/api/v3/roles/${id}`, { basic: true })).body.permissions;
    expect(stored).toEqual([
      { layer: 'EXTRACT', permission: 'VIEW' },
      { layer: 'EXTRACT', permission: 'RUN' },
      { layer: 'RECIPE', permission: 'VIEW' },
    ]);
    const notHeld = await t.edp('roles', 'update', id, '--remove-permission', 'LOAD:RUN');
    expect(notHeld.code).toBe(0);
    expect(notHeld.stderr).toContain('the role does not have LOAD:RUN');
  });

  it('refuses mixing the whole set with additions, the same pair added and removed, and unknown additions (exit 2, nothing sent)', async () => {
    const id = String(await roleId(t, 'Media Buyer'));
    const before = (await http(t.sb, 'GET', `/api/v3/roles/${id}`, { basic: true })).body.permissions;
    const mixed = await t.edp('roles', 'update', id, '--permission', 'EXTRACT:VIEW', '--add-permission', 'LOAD:RUN');
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toContain('--add-permission');
    const clash = await t.edp('roles', 'update', id, '--add-permission', 'LOAD:RUN', '--remove-permission', 'load:run');
    expect(clash.code).toBe(2);
    const unknown = await t.edp('roles', 'update', id, '--add-permission', 'LOAD:FLY');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('LOAD:FLY');
    expect((await http(t.sb, 'GET', `/api/v3/roles/${id}`, { basic: true })).body.permissions).toEqual(before);
  });

  it('--permission that removes permissions: exit 2 naming --yes and what it removes off a terminal; asks at one', async () => {
    const id = String(
      (
        await t.edp(
          'roles',
          'create',
          '--title',
          'Replaced',
          '--permission',
          'EXTRACT:VIEW',
          '--permission',
          'EXTRACT:RUN',
          '--json',
        )
      ).json().id,
    );
    for (const env of [{}, { CI: '1' }]) {
      const refused = await cli(t.sb, ['roles', 'update', id, '--permission', 'EXTRACT:RUN'], {
        env,
        tty: 'CI' in env,
      });
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('--yes');
      expect(refused.stderr).toContain('would remove EXTRACT:VIEW');
    }
    const noInput = await cli(t.sb, ['roles', 'update', id, '--permission', 'EXTRACT:RUN', '--no-input'], {
      tty: true,
    });
    expect(noInput.code).toBe(2);
    const held = (await http(t.sb, 'GET', `/api/v3/roles/${id}`, { basic: true })).body.permissions;
    expect(held).toHaveLength(2);

    const env = {
      EDP_BASE_URL: t.sb.url,
      EDP_USERNAME: 'agency@sandbox.local',
      EDP_PASSWORD: 'sandbox',
      EDP_CONFIG_DIR: tmp.dir,
    };
    const declined = await answerPrompts(
      ['roles', 'update', id, '--permission', 'EXTRACT:RUN'],
      [['Remove EXTRACT:VIEW from role', 'n\r']],
      env,
    );
    expect(declined.code).toBe(11);
    expect(declined.err).toContain('loses EXTRACT:VIEW');
    expect((await http(t.sb, 'GET', `/api/v3/roles/${id}`, { basic: true })).body.permissions).toHaveLength(2);
    const confirmed = await answerPrompts(
      ['roles', 'update', id, '--permission', 'EXTRACT:RUN'],
      [['Remove EXTRACT:VIEW from role', 'y\r']],
      env,
    );
    expect(confirmed.code).toBe(0);
    expect((await http(t.sb, 'GET', `/api/v3/roles/${id}`, { basic: true })).body.permissions).toEqual([
      { layer: 'EXTRACT', permission: 'RUN' },
    ]);
    // a set that only adds removes nothing: no question, no --yes
    const grows = await t.edp('roles', 'update', id, '--permission', 'EXTRACT:RUN', '--permission', 'LOAD:VIEW');
    expect(grows.code).toBe(0);
  });

  it('refuses an update with nothing to change, and unknown permissions (exit 2)', async () => {
    const id = await roleId(t, 'Media Buyer');
    expect((await t.edp('roles', 'update', String(id))).stderr).toContain('nothing to change');
    const r = await t.edp('roles', 'update', String(id), '--permission', 'RECIPE:EAT');
    expect(r.code).toBe(2);
  });

  it('maps a system role to exit 4, a taken title to exit 6 and a missing role to exit 5', async () => {
    const sys = await t.edp('roles', 'update', String(await roleId(t, 'Editor')), '--description', 'x');
    expect(sys.code).toBe(4);
    expect(sys.stderr).toContain('system role');
    expect((await t.edp('roles', 'update', String(await roleId(t, 'Media Buyer')), '--title', 'Viewer')).code).toBe(6);
    expect((await t.edp('roles', 'update', '9999', '--title', 'Q')).code).toBe(5);
  });
});
