import { beforeEach, describe, expect, it } from 'vitest';
import { cli, control, http, settleClock, tokenFor } from '../../helpers.js';
import { builtRecipe, configuration, configure, createRecipe, demo } from '../../fixtures/recipes.js';
import { FAST } from '../../fixtures/files.js';
import { useRecipeSandbox, W } from './fixtures.js';

const t = useRecipeSandbox();
let token: string;
beforeEach(async () => {
  token = await tokenFor(t.sb, 101);
});

const g = () => demo(t.sb, 101, 'google_ads');

describe('edp recipes build / resetup / poll', () => {
  it('build of a recipe never configured is exit 6 recipe_not_configured', async () => {
    const id = await createRecipe(t.sb, token, 4001);
    const r = await t.edp('recipes', 'build', id);
    expect(r.code).toBe(6);
    expect(r.stderr).toContain('409 recipe_not_configured');
  });

  it('build starts (202) and a second build is exit 6 build_already_running; --wait ends ready (exit 0)', async () => {
    const id = await createRecipe(t.sb, token, 4001);
    await configure(t.sb, token, id, configuration(t.sb, 101, { google_ads: 'all' }));
    // The build runs until the test moves the sandbox's clock past it.
    await control(t.sb, 'PATCH', '/faults', { build_seconds: 60 });
    const started = await t.edp('recipes', 'build', id, '--json');
    expect(started.code).toBe(0);
    expect(started.json().state).toBe('extracting_data');
    const again = await t.edp('recipes', 'build', id);
    expect(again.code).toBe(6);
    expect(again.stderr).toContain('build_already_running');
    await control(t.sb, 'PATCH', '/faults', { build_seconds: 0 });
    await settleClock(t.sb);
    const polled = await t.edp('recipes', 'poll', id, ...FAST, '--json');
    expect(polled.code).toBe(0);
    expect(polled.json().state).toBe('ready_to_work');
    const waited = await cli(t.sb, ['recipes', 'build', id, ...W, '--wait', ...FAST], {
      tty: true,
      env: { NO_COLOR: '1' },
    });
    expect(waited.code).toBe(0);
    expect(waited.stdout).toMatch(/state\s+ready_to_work/);
  });

  it('exit 7 when the build fails, with the error code in the message', async () => {
    const id = await createRecipe(t.sb, token, 4001);
    await configure(t.sb, token, id, configuration(t.sb, 101, { google_ads: 'all' }));
    await http(t.sb, 'POST', '/_sandbox/recipes/build-errors', { body: { recipe_id: id, code: 'sql_syntax_error' } });
    const r = await t.edp('recipes', 'build', id, '--wait', ...FAST);
    expect(r.code).toBe(7);
    expect(r.stderr).toContain('sql_syntax_error (transformation_build)');
    const polled = await t.edp('recipes', 'poll', id, ...FAST);
    expect(polled.code).toBe(7);
  });

  it('exit 9 for a degraded build with --fail-on-degraded, 0 without', async () => {
    await http(t.sb, 'PATCH', '/_sandbox/recipes/extraction-behavior', {
      body: { account_id: g().accounts[0], behavior: 'fails' },
    });
    const id = await createRecipe(t.sb, token, 4001);
    await configure(t.sb, token, id, configuration(t.sb, 101, { google_ads: 'all' }));
    const r = await t.edp('recipes', 'build', id, '--wait', '--fail-on-degraded', ...FAST);
    expect(r.code).toBe(9);
    expect(r.stderr).toContain('degraded (extraction_failed)');
    const plain = await t.edp('recipes', 'poll', id, ...FAST);
    expect(plain.code).toBe(0);
  });

  it('exit 8 when the build outlasts --wait-timeout', async () => {
    await http(t.sb, 'PATCH', '/_sandbox/recipes/extraction-behavior', {
      body: { datasource_name: 'google_ads', behavior: 'never_delivers' },
    });
    const id = await createRecipe(t.sb, token, 4001);
    await configure(t.sb, token, id, configuration(t.sb, 101, { google_ads: 'all' }));
    // The sandbox's clock stands still: the build waits on its extractions for good.
    await control(t.sb, 'PATCH', '/faults', { build_seconds: 60 });
    const r = await t.edp('recipes', 'build', id, '--wait', '--wait-timeout', '20ms', ...FAST);
    expect(r.code).toBe(8);
    expect(r.stderr).toContain(`edp recipes poll ${id}`);
    const bad = await t.edp('recipes', 'poll', id, '--wait-timeout', 'soon');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--wait-timeout');
  });

  it('resetup --wait ends ready; a template no longer deployable is exit 6 recipe_template_unavailable', async () => {
    const { id } = await builtRecipe(t.sb, token, 101, 4001, { google_ads: 'all' });
    const r = await t.edp('recipes', 'resetup', id, '--wait', ...FAST, '--json');
    expect(r.code).toBe(0);
    expect(r.json().state).toBe('ready_to_work');
    t.sb.store.state.recipe_templates.find((tpl) => tpl.id === 4001)!.deployable = false;
    try {
      const gone = await t.edp('recipes', 'resetup', id);
      expect(gone.code).toBe(6);
      expect(gone.stderr).toContain('recipe_template_unavailable');
    } finally {
      t.sb.store.state.recipe_templates.find((tpl) => tpl.id === 4001)!.deployable = true;
    }
  });
});
