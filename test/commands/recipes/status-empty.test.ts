import { beforeEach, describe, expect, it } from 'vitest';
import { cli, useSandbox } from '../../helpers.js';
import { resetRecipes } from '../../fixtures/recipes.js';

/** An empty status table is said only of workspaces that were read; one that failed says why, and nothing before it claims it empty. */
const t = useSandbox({ buildSeconds: 0 });
beforeEach(() => resetRecipes(t.sb));

describe('edp recipes status with a workspace the agency does not have', () => {
  it('alone: its error, and no line saying it has no recipe', async () => {
    for (const tty of [true, false]) {
      const r = await cli(t.sb, ['-w', '104', 'recipes', 'status'], { tty });
      expect(r.code).toBe(5);
      expect(r.stderr).toContain('workspace 104');
      expect(r.stderr).not.toContain('No recipe');
      expect(r.stdout).toBe('');
    }
  });

  it('beside one without recipes: that one is said empty, by name, then the error', async () => {
    const r = await cli(t.sb, ['-w', '101,104', 'recipes', 'status'], { tty: true });
    expect(r.code).toBe(5);
    const empty = r.stderr.indexOf('No recipe in workspace 101.');
    expect(empty).toBeGreaterThanOrEqual(0);
    expect(r.stderr.indexOf('workspace 104', empty)).toBeGreaterThan(empty);
    expect(r.stderr).not.toContain('No recipe in these workspaces');
  });

  it('--json still prints the (empty) array', async () => {
    const r = await cli(t.sb, ['-w', '104', 'recipes', 'status', '--json']);
    expect(r.code).toBe(5);
    expect(r.json()).toEqual([]);
  });
});
