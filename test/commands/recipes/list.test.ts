import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { cli, http, sandbox, tokenFor } from '../../helpers.js';
import { builtRecipe, createRecipe, demo, resetRecipes } from '../../fixtures/recipes.js';

let sb: Sandbox;
let token: string;
beforeAll(async () => {
  sb = await sandbox({ buildSeconds: 0.05 });
  token = await tokenFor(sb, 101);
});
afterAll(() => sb.close());
beforeEach(() => resetRecipes(sb));

const W = ['-w', '101'];
const g = () => demo(sb, 101, 'google_ads');

describe('edp recipes list', () => {
  it('lists with --state and --template; an unknown --state is refused locally', async () => {
    await builtRecipe(sb, token, 101, 4001, { google_ads: 'all' });
    await createRecipe(sb, token, 4002);
    const ready = await cli(sb, ['recipes', 'list', ...W, '--state', 'ready_to_work', '--json']);
    expect(ready.json().map((r: any) => r.template_id)).toEqual([4001]);
    const byTemplate = await cli(sb, ['recipes', 'list', ...W, '--template', '4002', '--json']);
    expect(byTemplate.json().map((r: any) => r.template_id)).toEqual([4002]);
    const bad = await cli(sb, ['recipes', 'list', ...W, '--state', 'Ready to work']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--state must be one of extracting_data, building_dependencies, ready_to_work, failed/);
  });

  it('flags a degraded recipe in the list and shows unknown states as they come', async () => {
    await http(sb, 'PATCH', '/_sandbox/recipes/extraction-behavior', {
      body: { account_id: g().accounts[0], behavior: 'never_delivers' },
    });
    const { id } = await builtRecipe(sb, token, 101, 4001, { google_ads: 'all' });
    const listed = await cli(sb, ['recipes', 'list', ...W], { tty: true });
    expect(listed.stdout).toContain('ready_to_work (degraded)');
    (sb.store.state.recipes[0] as any).state = 'queued_for_build';
    const odd = await cli(sb, ['recipes', 'get', id, ...W], { tty: true, env: { NO_COLOR: '1' } });
    expect(odd.code).toBe(0);
    expect(odd.stdout).toMatch(/State\s+queued_for_build/);
  });
});
