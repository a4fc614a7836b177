import { beforeEach, describe, expect, it } from 'vitest';
import { cli, http, tokenFor } from '../../helpers.js';
import { builtRecipe, demo, resetRecipes } from '../../fixtures/recipes.js';
import { useRecipeSandbox, W } from './fixtures.js';

const t = useRecipeSandbox();
let token: string;
beforeEach(async () => {
  token = await tokenFor(t.sb, 101);
});

const account = (id: number) => t.sb.store.state.accounts.find((a) => a.id === id)!;

async function degradedRecipe(behavior: string) {
  const left = demo(t.sb, 101, 'google_ads').accounts[0]!;
  await http(t.sb, 'PATCH', '/_sandbox/recipes/extraction-behavior', { body: { account_id: left, behavior } });
  const { id, recipe } = await builtRecipe(t.sb, token, 101, 4001, { google_ads: 'all' });
  expect(recipe.degraded).toBe(true);
  return { id, left, a: account(left) };
}

describe('a degraded build explained', () => {
  it('recipes get names the account by title and remote id, says what the reason means and what to run next', async () => {
    const { id, left, a } = await degradedRecipe('fails');
    // at a terminal the explanation is part of the view; piped it is a note on stderr
    for (const tty of [false, true]) {
      const r = await cli(t.sb, ['recipes', 'get', id, ...W], { tty });
      expect(r.code).toBe(0);
      const text = tty ? r.stdout : r.stderr;
      expect(text).toMatch(
        new RegExp(`extraction \\d+, account ${left}: extraction_failed {2}"${a.title}", remote id ${a.account_id}`),
      );
      expect(text).toMatch(/\n {4}its extraction failed\n {4}next: edp extracts run \d+ --wait -w 101\n/);
      expect(text).toContain(`Once fixed, build again: edp recipes build ${id} --wait -w 101`);
      if (!tty) expect(r.stdout).not.toContain('Once fixed');
    }
  });

  it('at 40 columns the explanation is wrapped at spaces, never mid-word, and the command stays whole', async () => {
    const { id } = await degradedRecipe('fails');
    const r = await cli(t.sb, ['recipes', 'get', id, ...W], { tty: true, columns: 40, env: { NO_COLOR: '1' } });
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    const entry = lines.findIndex((l) => /^ {2}extraction \d+, account/.test(l));
    // The entry line is prose: each of its rows fits, the words whole, continued two spaces in.
    expect(lines[entry]!.length).toBeLessThanOrEqual(40);
    expect(lines[entry + 1]).toMatch(/^ {4}\S/);
    expect(lines.join(' ')).toContain('extraction_failed');
    const next = lines.find((l) => l.startsWith('    next: '))!;
    expect(next).toMatch(/^ {4}next: edp extracts run \d+ --wait -w 101$/);
  });

  it('a reason the tool does not know is shown as it comes, with a generic next step', async () => {
    const { id } = await degradedRecipe('never_delivers');
    const entry = t.sb.store.state.recipes[0]!.sources[0]!.not_delivered[0]!;
    entry.reason = 'quota_exceeded_elsewhere';
    const r = await cli(t.sb, ['recipes', 'get', id, ...W], { tty: true });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(': quota_exceeded_elsewhere');
    expect(r.stdout).toMatch(/a reason this version of edp does not know\n {4}next: edp extracts get \d+ -w 101\n/);
  });

  it('reads account names only when something was left out; --json stays the exact object', async () => {
    const { id } = await degradedRecipe('never_delivers');
    const verbose = await t.edp('recipes', 'get', id, '--verbose');
    expect(verbose.stderr).toMatch(/GET \/api\/v3\/connections\/\d+\/accounts/);
    const json = await t.edp('recipes', 'get', id, '--json', '--verbose');
    expect(json.stderr).not.toContain('/accounts');
    expect(Object.keys(json.json())).not.toContain('names');
    resetRecipes(t.sb);
    const { id: clean } = await builtRecipe(t.sb, token, 101, 4001, { google_ads: 'all' });
    const plain = await t.edp('recipes', 'get', clean, '--verbose');
    expect(plain.stdout).not.toContain('Once fixed');
    expect(plain.stderr).not.toContain('/accounts');
  });

  it('poll and build --wait explain the same way', async () => {
    const { id, a } = await degradedRecipe('fails');
    const r = await t.edp('recipes', 'poll', id, '--poll-interval', '10ms');
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`"${a.title}", remote id ${a.account_id}`);
  });

  it('the deploy summary names the accounts left out, per workspace, with the next commands', async () => {
    const left = demo(t.sb, 101, 'google_ads').accounts[0]!;
    await http(t.sb, 'PATCH', '/_sandbox/recipes/extraction-behavior', {
      body: { account_id: left, behavior: 'fails' },
    });
    const a = account(left);
    for (const tty of [false, true]) {
      resetRecipes(t.sb);
      await http(t.sb, 'PATCH', '/_sandbox/recipes/extraction-behavior', {
        body: { account_id: left, behavior: 'fails' },
      });
      const r = await cli(
        t.sb,
        [
          'recipes',
          'deploy',
          ...W,
          '--template',
          '4001',
          '--data-source',
          'google_ads',
          '--accounts',
          'all-active',
          '--poll-interval',
          '10ms',
        ],
        { tty },
      );
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/workspace 101: recipe \d+ was built without some accounts \(extraction_failed\)/);
      expect(r.stderr).toContain(`account ${left}: extraction_failed  "${a.title}", remote id ${a.account_id}`);
      expect(r.stderr).toMatch(/Once fixed, build again: edp recipes build \d+ --wait -w 101/);
    }
  });
});

describe('edp recipes get', () => {
  it('get shows state, error code, stage and message, and per-source not-delivered reasons', async () => {
    await http(t.sb, 'PATCH', '/_sandbox/recipes/extraction-behavior', {
      body: { datasource_name: 'facebook_ads', behavior: 'fails' },
    });
    const { id } = await builtRecipe(t.sb, token, 101, 4002, { google_ads: 'all', facebook_ads: 'all' });
    const r = await cli(t.sb, ['recipes', 'get', id, ...W], { tty: true, env: { NO_COLOR: '1' } });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/state\s+failed/);
    expect(r.stdout).toMatch(/error\s+no_data_delivered \(extraction, facebook_ads\): /);
    expect(r.stdout).toMatch(/facebook_ads {2}failed, 5 not delivered/);
    expect(r.stdout).toMatch(/extraction \d+, account \d+: extraction_failed/);
  });
});
