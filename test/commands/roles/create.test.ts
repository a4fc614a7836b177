import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, http, tempDir, useSandbox } from '../../helpers.js';

const t = useSandbox();
const tmp = tempDir('edp-roles-');
afterAll(() => tmp.remove());

const roleCount = async () => (await http(t.sb, 'GET', '/api/v3/roles/', { basic: true })).body.count as number;

describe('edp roles create', () => {
  it('creates a role from repeated --permission flags (LAYER:PERM or LAYER.PERM, any case)', async () => {
    const r = await t.edp(
      'roles',
      'create',
      '--title',
      'Loader',
      '--description',
      'runs loads',
      '--permission',
      'LOAD:RUN',
      '--permission',
      'load.view',
      '--json',
    );
    expect(r.code).toBe(0);
    expect(r.json()).toMatchObject({
      title: 'Loader',
      description: 'runs loads',
      is_system: false,
      permissions: [
        { layer: 'LOAD', permission: 'RUN' },
        { layer: 'LOAD', permission: 'VIEW' },
      ],
    });
  });

  it('creates a role from a YAML file; flags win over it', async () => {
    const file = join(tmp.dir, 'role.yaml');
    writeFileSync(
      file,
      'title: From File\ndescription: file text\npermissions:\n  - RECIPE:VIEW\n  - {layer: RECIPE, permission: BUILD}\n',
    );
    const r = await t.edp('roles', 'create', '--file', file, '--title', 'From Flags', '--json');
    expect(r.code).toBe(0);
    expect(r.json()).toMatchObject({
      title: 'From Flags',
      description: 'file text',
      permissions: [
        { layer: 'RECIPE', permission: 'VIEW' },
        { layer: 'RECIPE', permission: 'BUILD' },
      ],
    });
  });

  it('refuses permissions outside the catalog before writing (exit 2)', async () => {
    const before = await roleCount();
    const r = await t.edp(
      'roles',
      'create',
      '--title',
      'Nope',
      '--permission',
      'EXTRACT:FLY',
      '--permission',
      'MOON:VIEW',
    );
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
    cases.push([
      ['roles', 'create', '--file', badKeys],
      'bad.json:1:14: perms: unknown key (known: title, description, permissions)',
    ]);
    for (const [argv, message] of cases) {
      const r = await cli(t.sb, argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr).toContain(message);
    }
    expect(await roleCount()).toBe(before);
  });

  it('maps a duplicate title to exit 6', async () => {
    const r = await t.edp('roles', 'create', '--title', 'Editor');
    expect(r.code).toBe(6);
    expect(r.stderr).toContain('409');
    expect(r.stderr).toContain('already exists');
  });
});
