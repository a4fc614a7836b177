import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  advanceClock,
  answerPrompts,
  cli,
  control,
  freshConfig,
  PASSWORD,
  USERNAME,
  useSandbox,
} from '../../helpers.js';

/**
 * `extracts run|pause|unpause` across workspaces. The sandbox's clock stands still: a run
 * started here is still running when the test reads it. Failed runs are made with the sandbox's
 * extraction behaviour (`fails`) for one account of each of two workspaces, run, and the clock
 * moved past the run.
 */
const RUN = 60;
const t = useSandbox({ buildSeconds: RUN });

interface SbExtract {
  id: number;
  workspace_id: number;
  account_entity_id: number;
  datasource_name: string;
  status: string;
  is_paused: boolean;
}
const extracts = (): SbExtract[] => t.sb.store.state.extracts as unknown as SbExtract[];
const WORKSPACES = [101, 102, 103];

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

let failed: SbExtract[] = [];
beforeAll(async () => {
  // One failed run in each of 101 and 102; the rest of the extracts never ran (status new).
  failed = [101, 102].map((ws) => extracts().find((e) => e.workspace_id === ws && !e.is_paused)!);
  for (const e of failed) {
    await control(t.sb, 'PATCH', '/recipes/extraction-behavior', {
      account_id: e.account_entity_id,
      behavior: 'fails',
    });
    expect((await cli(t.sb, ['extracts', 'run', String(e.id), '-w', String(e.workspace_id)])).code).toBe(0);
    await control(t.sb, 'PATCH', '/recipes/extraction-behavior', {
      account_id: e.account_entity_id,
      behavior: 'delivers',
    });
  }
  await advanceClock(t.sb, RUN);
  expect(failed.map((e) => extracts().find((x) => x.id === e.id)!.status)).toEqual(['failed', 'failed']);
  await control(t.sb, 'PUT', '/snapshots/failed-runs');
});
beforeEach(async () => {
  await control(t.sb, 'POST', '/snapshots/failed-runs/restore');
  await control(t.sb, 'DELETE', '/requests');
});

describe('extracts in bulk', () => {
  it('run --failed runs exactly the extracts whose last run failed, across the workspaces, one row each', async () => {
    const r = await cli(t.sb, ['extracts', 'run', '--failed', '-w', WORKSPACES.join(','), '--yes', '--json']);
    expect(r.code).toBe(0);
    expect(r.json()).toEqual(
      failed.map((e) => ({
        workspace_id: e.workspace_id,
        id: e.id,
        title: expect.any(String),
        outcome: 'ok',
        detail: 'running',
        error: null,
      })),
    );
    expect(await writes()).toEqual(failed.map((e) => `POST /api/v3/extracts/${e.id}/run 202`));
  });

  it('piped, the summary is one tab-separated row per extract: workspace, id, title, outcome, detail', async () => {
    const r = await cli(t.sb, ['extracts', 'run', '--failed', '--all-workspaces', '--yes']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n')).toEqual(
      failed.map((e) =>
        [
          e.workspace_id,
          e.id,
          (t.sb.store.state.extracts.find((x) => x.id === e.id) as { title: string }).title,
          'ok',
          'running',
        ].join('\t'),
      ),
    );
    // a line per workspace as it ends, on stderr
    expect(r.stderr).toContain('[101] ✓ 1 extract: running');
    expect(r.stderr).toContain('[102] ✓ 1 extract: running');
  });

  it('pause --data-source, then unpause by ids, in two workspaces', async () => {
    const chosen = extracts().filter((e) => [101, 103].includes(e.workspace_id) && e.datasource_name === 'google_ads');
    expect(chosen.length).toBeGreaterThan(1);
    const p = await cli(t.sb, ['extracts', 'pause', '--data-source', 'google_ads', '-w', '101,103', '--yes', '--json']);
    expect(p.code).toBe(0);
    expect(p.json().map((x: any) => [x.id, x.outcome, x.detail])).toEqual(chosen.map((e) => [e.id, 'ok', 'paused']));
    expect(chosen.every((e) => extracts().find((x) => x.id === e.id)!.is_paused)).toBe(true);
    const ids = chosen.map((e) => String(e.id));
    const u = await cli(t.sb, ['extracts', 'unpause', ids[0]!, ids.slice(1).join(','), '-w', '101,103', '--yes']);
    expect(u.code).toBe(0);
    expect(chosen.every((e) => !extracts().find((x) => x.id === e.id)!.is_paused)).toBe(true);
  });

  it('without a terminal and without --yes: exit 2 naming --yes, nothing sent', async () => {
    const r = await cli(t.sb, ['extracts', 'run', '--failed', '--all-workspaces']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('pass --yes');
    expect(r.stdout).toBe('');
    expect((await control(t.sb, 'GET', '/requests')).results).toEqual([]);
  });

  it('at a terminal it asks, naming the count; no sends nothing, yes runs them', async () => {
    const env = {
      EDP_CONFIG_DIR: freshConfig().dir,
      EDP_BASE_URL: t.sb.url,
      EDP_USERNAME: USERNAME,
      EDP_PASSWORD: PASSWORD,
    };
    const argv = ['extracts', 'run', '--failed', '-w', '101,102,103'];
    const no = await answerPrompts(argv, [['Run 2 extracts in 2 workspaces?', 'n\r']], env);
    expect(no.unanswered).toBe(0);
    expect(no.code).toBe(11);
    expect(await writes()).toEqual([]);
    const yes = await answerPrompts(argv, [['Run 2 extracts in 2 workspaces?', 'y\r']], env);
    expect(yes.code).toBe(0);
    expect(await writes()).toEqual(failed.map((e) => `POST /api/v3/extracts/${e.id}/run 202`));
  });

  it('an id no workspace has is a row of its own and exit 5; the others are run', async () => {
    const r = await cli(t.sb, ['extracts', 'run', String(failed[0]!.id), '49999', '-w', '101,102', '--yes', '--json']);
    expect(r.code).toBe(5);
    expect(r.json().map((x: any) => [x.workspace_id, String(x.id), x.outcome])).toEqual([
      [null, '49999', 'not found'],
      [101, String(failed[0]!.id), 'ok'],
    ]);
  });

  it('the worst outcome is the exit code: a run refused as already running is a conflict (6)', async () => {
    const [a, b] = failed;
    expect((await cli(t.sb, ['extracts', 'run', String(a!.id), '-w', '101'])).code).toBe(0);
    const r = await cli(t.sb, ['extracts', 'run', String(a!.id), String(b!.id), '-w', '101,102', '--yes']);
    expect(r.code).toBe(6);
    expect(r.stdout).toMatch(new RegExp(`^101\\t${a!.id}\\t.*\\tfailed\\t.*409`, 'm'));
    expect(r.stdout).toMatch(new RegExp(`^102\\t${b!.id}\\t.*\\tok\\trunning$`, 'm'));
  });

  it('the bulk form never takes the profile default workspace, and --wait goes with one extract only', async () => {
    const none = await cli(t.sb, ['extracts', 'run', '--failed', '--yes']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('--all-workspaces');
    const wait = await cli(t.sb, ['extracts', 'run', '--failed', '--all-workspaces', '--yes', '--wait']);
    expect(wait.code).toBe(2);
    expect(wait.stderr).toContain('--wait goes with one extract only');
    expect((await control(t.sb, 'GET', '/requests')).results).toEqual([]);
  });
});
