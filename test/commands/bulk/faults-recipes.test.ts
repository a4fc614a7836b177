import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cli, control, http, tokenFor, useSandbox } from '../../helpers.js';
import { V31, configuration, configure, createRecipe, waitBuilt } from '../../fixtures/recipes.js';
import { expectTrueSummary } from './truth.js';

/**
 * `recipes build --failed` on a bad day: a build whose answer was lost is read back (its
 * `last_build_at` moved, or it is under way) before it is sent again, so no recipe is built
 * twice and none is left with an unknown outcome. One recipe per workspace whose build failed; the clock stands still afterwards,
 * so the builds started here are under way when the recipes are read back.
 */
const t = useSandbox({ buildSeconds: 60, seed: 11 });
const failed: string[] = [];

beforeAll(async () => {
  for (const ws of [101, 102, 103]) {
    const token = await tokenFor(t.sb, ws);
    const id = await createRecipe(t.sb, token, 4001);
    await configure(t.sb, token, id, configuration(t.sb, ws, { google_ads: 'all' }));
    await control(t.sb, 'POST', '/recipes/build-errors', { recipe_id: id, code: 'sql_error' });
    await http(t.sb, 'POST', `${V31}${id}/build/`, { token });
    expect((await waitBuilt(t.sb, token, id)).state).toBe('failed');
    failed.push(id);
  }
  await control(t.sb, 'PUT', '/snapshots/failed');
});
beforeEach(async () => {
  await control(t.sb, 'POST', '/snapshots/failed/restore');
  await control(t.sb, 'DELETE', '/requests');
});

/** Builds the sandbox carried out (answered 202, whether or not the answer arrived), per recipe. */
async function buildsStarted(): Promise<Record<string, number>> {
  const journal: Array<{ method: string; path: string; status: number }> = (await control(t.sb, 'GET', '/requests'))
    .results;
  const builds: Record<string, number> = {};
  for (const r of journal) {
    const m = /^\/api\/v3\.1\/automated-recipes\/(\d+)\/build\/$/.exec(r.path);
    if (r.method === 'POST' && m && r.status === 202) builds[m[1]!] = (builds[m[1]!] ?? 0) + 1;
  }
  return builds;
}

describe('recipes build in bulk under faults', () => {
  it.each([{ reset_rate: 0.2 }, { fail_rate: 0.1, reset_rate: 0.1 }])(
    '%o: no failed recipe is built twice or left unknown, and the summary is true',
    async (faults) => {
      await control(t.sb, 'PATCH', '/faults', faults);
      let r;
      try {
        r = await cli(t.sb, ['recipes', 'build', '--failed', '--all-workspaces', '--yes', '--json']);
      } finally {
        await control(t.sb, 'PATCH', '/faults', { fail_rate: 0, reset_rate: 0 });
      }
      expectTrueSummary(r.json(), await buildsStarted(), failed, r.code);
    },
  );
});
