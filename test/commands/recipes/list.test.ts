import { beforeEach, describe, expect, it } from 'vitest';
import { cli, http, tokenFor } from '../../helpers.js';
import { builtRecipe, createRecipe, demo } from '../../fixtures/recipes.js';
import { useRecipeSandbox, W } from './fixtures.js';

const t = useRecipeSandbox();
let token: string;
beforeEach(async () => {
  token = await tokenFor(t.sb, 101);
});

const g = () => demo(t.sb, 101, 'google_ads');

describe('edp recipes list', () => {
  it('lists with --state and --template; an unknown --state is refused locally', async () => {
    await builtRecipe(t.sb, token, 101, 4001, { google_ads: 'all' });
    await createRecipe(t.sb, token, 4002);
    const ready = await t.edp('recipes', 'list', '--state', 'ready_to_work', '--json');
    expect(ready.json().map((r: any) => r.template_id)).toEqual([4001]);
    const byTemplate = await t.edp('recipes', 'list', '--template', '4002', '--json');
    expect(byTemplate.json().map((r: any) => r.template_id)).toEqual([4002]);
    const bad = await t.edp('recipes', 'list', '--state', 'Ready to work');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--state must be one of extracting_data, building_dependencies, ready_to_work, failed/);
    // A typo is answered with the value meant.
    const typo = await t.edp('recipes', 'list', '--state', 'faild');
    expect([typo.code, typo.stderr]).toEqual([
      2,
      'error: --state must be one of extracting_data, building_dependencies, ready_to_work, failed, got "faild"; did you mean failed?\n',
    ]);
  });

  it('an empty filtered list at a terminal names the filter, not the workspace', async () => {
    await createRecipe(t.sb, token, 4002);
    const r = await t.edp('recipes', 'list', '--state', 'failed', '--template', '4002');
    expect(r.code).toBe(0);
    const tty = await cli(t.sb, ['recipes', 'list', '--state', 'failed', ...W], { tty: true });
    expect(tty.stderr).toBe('No recipes in state failed in this workspace.\n');
  });

  it('flags a degraded recipe in the list and shows unknown states as they come', async () => {
    await http(t.sb, 'PATCH', '/_sandbox/recipes/extraction-behavior', {
      body: { account_id: g().accounts[0], behavior: 'never_delivers' },
    });
    const { id } = await builtRecipe(t.sb, token, 101, 4001, { google_ads: 'all' });
    const listed = await cli(t.sb, ['recipes', 'list', ...W], { tty: true });
    expect(listed.stdout).toContain('ready_to_work (degraded)');
    (t.sb.store.state.recipes[0] as any).state = 'queued_for_build';
    const odd = await cli(t.sb, ['recipes', 'get', id, ...W], { tty: true, env: { NO_COLOR: '1' } });
    expect(odd.code).toBe(0);
    expect(odd.stdout).toMatch(/state\s+queued_for_build/);
  });
});
