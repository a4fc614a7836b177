import { beforeEach, describe, expect, it } from 'vitest';
import { advanceClockOnRead, cli, RECIPE_READ, tokenFor, useSandbox } from '../../helpers.js';
import { builtRecipe, resetRecipes } from '../../fixtures/recipes.js';
import { FAST } from '../../fixtures/files.js';

/**
 * A fleet deploy where one workspace fails at step 4 with its recipe adopted, configured and
 * ready, while the others build: the summary and the Ctrl-C notes say what each workspace is.
 */

// Builds take 60 s of the sandbox's clock, which stands still unless a test moves it.
const t = useSandbox({ buildSeconds: 60 }, [], { each: true });
beforeEach(() => resetRecipes(t.sb));

const REMOTE = '123-456-7801';
const DEPLOY = [
  'recipes',
  'deploy',
  '-w',
  '101,102,103',
  '--template',
  '4001',
  '--data-source',
  'google_ads',
  '--accounts',
  `remote:${REMOTE}`,
  ...FAST,
];

/** Workspace 101's recipe configured and ready, then its account made inactive: a deploy adopts it and fails at step 4. */
async function readyRecipeIn101ThenAccountInactive(): Promise<string> {
  const account = t.sb.store.state.accounts.find((a) => a.workspace_id === 101 && a.account_id === REMOTE)!;
  const { id, recipe } = await builtRecipe(t.sb, await tokenFor(t.sb, 101), 101, 4001, { google_ads: [account.id] });
  expect(recipe.state).toBe('ready_to_work');
  account.is_active = false;
  return id;
}

describe('a fleet deploy with a workspace that failed at step 4', () => {
  it('Ctrl-C: that workspace says how it ended, not that its recipe was left unconfigured', async () => {
    const id = await readyRecipeIn101ThenAccountInactive();
    const stop = new AbortController();
    const r = await cli(t.sb, DEPLOY, {
      signal: stop.signal,
      onStderr: (all) => {
        if (/\[101\] ✗ 4\/7/.test(all) && /\[102\] … 6\/7/.test(all) && /\[103\] … 6\/7/.test(all))
          stop.abort(Object.assign(new Error('interrupted'), { name: 'InterruptedError' }));
      },
    });
    expect(r.code).toBe(130);
    const note = r.stderr.split('\n').find((l) => l.startsWith('! workspace 101:'));
    expect(note).toContain('had ended before the stop, failing at step 4/7');
    expect(note).toContain(`recipe ${id} is ready_to_work`);
    expect(note).not.toContain('created, not configured');
    expect(r.stderr).toMatch(/! workspace 102: stopped waiting; any build of recipe \d+ continues on the service/);
  });

  it('the summary names the workspace that failed and at which step, not a recipe that "did not end ready"', async () => {
    await readyRecipeIn101ThenAccountInactive();
    // 102 and 103 build to the end while the deploy waits.
    advanceClockOnRead(t.sb, RECIPE_READ, 60);
    const r = await cli(t.sb, DEPLOY);
    expect(r.code).toBe(5);
    expect(r.stdout).toMatch(/^101\t\d+\t\d+\tready_to_work\t\t/m);
    expect(r.stderr).toContain('! 1 of 3 workspace(s) failed: 101 (step 4/7: ');
    expect(r.stderr).not.toContain('did not end ready');
  });
});
