import { describe, expect, it } from 'vitest';
import { cli, useSandbox } from '../../helpers.js';
import { roleId } from './fixtures.js';

const t = useSandbox();

describe('edp roles get', () => {
  it('shows a role on a terminal with its permissions as LAYER:PERMISSION', async () => {
    const id = await roleId(t, 'Media Buyer');
    const r = await cli(t.sb, ['roles', 'get', String(id)], { tty: true, env: { NO_COLOR: '1' } });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/kind\s+custom/);
    expect(r.stdout).toContain('EXTRACT:CREATE');
    const viewer = await cli(t.sb, ['roles', 'get', String(await roleId(t, 'Viewer'))], {
      tty: true,
      env: { NO_COLOR: '1' },
    });
    expect(viewer.stdout).toMatch(/kind\s+system \(read-only\)/);
    expect((await t.edp('roles', 'get', '9999')).code).toBe(5);
    expect((await t.edp('roles', 'get', 'abc')).code).toBe(2);
  });
});
