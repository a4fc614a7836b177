import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cli, control, http, tokenFor, useSandbox } from '../../helpers.js';
import { V31, builtRecipe, configuration, configure, createRecipe, waitBuilt } from '../../fixtures/recipes.js';

/**
 * `recipes build|resetup` across workspaces. In each of 101, 102 and 103 one recipe built
 * ready; in 101 and 103 a second one whose build failed (the sandbox's build-error control).
 * The clock stands still, so a build started here is under way when the test reads it.
 */
const t = useSandbox({ buildSeconds: 60 });

const ready: Record<number, string> = {};
const failed: Record<number, string> = {};

/**
 * The writes the sandbox answered since the journal was cleared: `METHOD path status`. A 401 is a
 * token of a state the snapshot's restore replaced, renewed and the write sent again.
 */
async function writes(): Promise<string[]> {
  const journal: Array<{ method: string; path: string; status: number }> = (await control(t.sb, 'GET', '/requests'))
    .results;
  return journal
    .filter((r) => r.method !== 'GET' && !r.path.endsWith('/token') && r.status !== 401)
    .map((r) => `${r.method} ${r.path} ${r.status}`);
}

beforeAll(async () => {
  for (const ws of [101, 102, 103]) {
    const token = await tokenFor(t.sb, ws);
    ready[ws] = (await builtRecipe(t.sb, token, ws, 4001, { google_ads: 'all' })).id;
    if (ws === 102) continue;
    const id = await createRecipe(t.sb, token, 4002);
    await configure(t.sb, token, id, configuration(t.sb, ws, { google_ads: 'all' }));
    await control(t.sb, 'POST', '/recipes/build-errors', { recipe_id: id, code: 'sql_syntax_error' });
    await http(t.sb, 'POST', `${V31}${id}/build/`, { token });
    expect((await waitBuilt(t.sb, token, id)).state).toBe('failed');
    failed[ws] = id;
  }
  await control(t.sb, 'PUT', '/snapshots/built');
});
beforeEach(async () => {
  await control(t.sb, 'POST', '/snapshots/built/restore');
  await control(t.sb, 'DELETE', '/requests');
});

describe('recipes in bulk', () => {
  it('build --failed builds exactly the recipes whose last build failed, one row each', async () => {
    const r = await cli(t.sb, ['recipes', 'build', '--failed', '--all-workspaces', '--yes', '--json']);
    expect(r.code).toBe(0);
    expect(r.json().map((x: any) => [x.workspace_id, String(x.id), x.outcome, x.detail])).toEqual([
      [101, failed[101], 'ok', 'extracting_data'],
      [103, failed[103], 'ok', 'extracting_data'],
    ]);
    expect(await writes()).toEqual([`POST ${V31}${failed[101]}/build/ 202`, `POST ${V31}${failed[103]}/build/ 202`]);
  });

  it('resetup --state ready_to_work in two workspaces', async () => {
    const r = await cli(t.sb, ['recipes', 'resetup', '--state', 'ready_to_work', '-w', '101,102', '--yes']);
    expect(r.code).toBe(0);
    expect(await writes()).toEqual([`POST ${V31}${ready[101]}/resetup/ 202`, `POST ${V31}${ready[102]}/resetup/ 202`]);
  });

  it('a build refused because one runs is a conflict row, and the exit code (6); the other builds', async () => {
    const token = await tokenFor(t.sb, 101);
    await http(t.sb, 'POST', `${V31}${failed[101]}/build/`, { token });
    await control(t.sb, 'DELETE', '/requests');
    const r = await cli(t.sb, ['recipes', 'build', failed[101]!, failed[103]!, '-w', '101,103', '--yes', '--json']);
    expect(r.code).toBe(6);
    expect(r.json().map((x: any) => [String(x.id), x.outcome, x.error?.code ?? null])).toEqual([
      [failed[101], 'failed', 'build_already_running'],
      [failed[103], 'ok', null],
    ]);
  });

  it('--wait and --fail-on-degraded go with one recipe only; a bad --state is refused; nothing sent', async () => {
    const wait = await cli(t.sb, ['recipes', 'build', '--failed', '-w', '101', '--yes', '--wait']);
    expect(wait.code).toBe(2);
    expect(wait.stderr).toContain('--wait goes with one recipe only');
    const state = await cli(t.sb, ['recipes', 'build', '--state', 'broken', '-w', '101', '--yes']);
    expect(state.code).toBe(2);
    expect(state.stderr).toContain('--state');
    expect((await control(t.sb, 'GET', '/requests')).results).toEqual([]);
  });

  it('one id in one workspace is the verb as it was: its own message, no summary', async () => {
    const r = await cli(t.sb, ['recipes', 'build', failed[101]!, '-w', '101']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`Build of recipe ${failed[101]} started`);
    expect(await writes()).toEqual([`POST ${V31}${failed[101]}/build/ 202`]);
  });
});
