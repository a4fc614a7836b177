import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { cli, http, sandbox } from '../../helpers.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox();
});
afterAll(() => sb.close());

describe('edp workspaces enable-recipe and dashboards', () => {
  it('enables a recipe, after which its DATA dashboards show in the workspace', async () => {
    expect((await cli(sb, ['workspaces', 'dashboards', '102', '--json'])).json()).toEqual([]);
    const r = await cli(sb, ['workspaces', 'enable-recipe', '102', '502']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('Enabled recipe 502 in workspace 102');
    const d = await cli(sb, ['workspaces', 'dashboards', '102']);
    expect(d.stdout).toBe('9003\tFunnel\tDATA\n');
  });

  it('exit 5 for an unknown recipe, exit 4 when the recipe pipeline is off, exit 2 for a bad id', async () => {
    const unknown = await cli(sb, ['workspaces', 'enable-recipe', '102', '999']);
    expect(unknown.code).toBe(5);
    expect(unknown.stderr).toContain('404');
    await http(sb, 'PATCH', '/_sandbox/agency', { body: { recipe_pipeline: false } });
    const off = await cli(sb, ['workspaces', 'enable-recipe', '102', '501']);
    await http(sb, 'PATCH', '/_sandbox/agency', { body: { recipe_pipeline: true } });
    expect(off.code).toBe(4);
    expect(off.stderr).toMatch(/403: The recipe pipeline is disabled/);
    expect((await cli(sb, ['workspaces', 'enable-recipe', '102', 'x'])).code).toBe(2);
  });
});
