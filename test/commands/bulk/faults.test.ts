import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { advanceClock, cli, control, useSandbox } from '../../helpers.js';

/**
 * Bulk actions on a bad day (docs/faults.md): with `--fail-rate` (503, nothing done) and
 * `--reset-rate` (done, then the connection dropped before the answer), every run is started
 * once, none twice and none lost, and the summary says what happened. Six extracts of three
 * workspaces have a failed last run; the clock stands still, so the runs started are under way.
 */
const RUN = 60;
const t = useSandbox({ buildSeconds: RUN, seed: 7 });

interface SbExtract {
  id: number;
  workspace_id: number;
  account_entity_id: number;
  status: string;
}
const extracts = () => t.sb.store.state.extracts as unknown as SbExtract[];

let failed: SbExtract[] = [];
beforeAll(async () => {
  failed = [101, 102, 103].flatMap((ws) =>
    extracts()
      .filter((e) => e.workspace_id === ws)
      .slice(0, 2),
  );
  for (const e of failed)
    await control(t.sb, 'PATCH', '/recipes/extraction-behavior', {
      account_id: e.account_entity_id,
      behavior: 'fails',
    });
  for (const e of failed)
    expect((await cli(t.sb, ['extracts', 'run', String(e.id), '-w', String(e.workspace_id)])).code).toBe(0);
  for (const e of failed)
    await control(t.sb, 'PATCH', '/recipes/extraction-behavior', {
      account_id: e.account_entity_id,
      behavior: 'delivers',
    });
  await advanceClock(t.sb, RUN);
  await control(t.sb, 'PUT', '/snapshots/failed');
});
beforeEach(async () => {
  await control(t.sb, 'POST', '/snapshots/failed/restore');
  await control(t.sb, 'DELETE', '/requests');
});

/** How many runs the sandbox carried out (answered 202, whether or not the answer arrived), per extract. */
async function runsStarted(): Promise<Map<number, number>> {
  const journal: Array<{ method: string; path: string; status: number }> = (
    await control(t.sb, 'GET', '/requests', undefined)
  ).results;
  const runs = new Map<number, number>();
  for (const r of journal) {
    const m = /^\/api\/v3\/extracts\/(\d+)\/run$/.exec(r.path);
    if (r.method === 'POST' && m && r.status === 202) runs.set(Number(m[1]), (runs.get(Number(m[1])) ?? 0) + 1);
  }
  return runs;
}

describe('bulk actions under faults', () => {
  it.each([
    { fail_rate: 0.25, reset_rate: 0 },
    { fail_rate: 0, reset_rate: 0.3 },
    { fail_rate: 0.15, reset_rate: 0.15 },
  ])('%o: each failed extract is run exactly once, none lost, and the summary says so', async (faults) => {
    await control(t.sb, 'PATCH', '/faults', faults);
    let r;
    try {
      r = await cli(t.sb, ['extracts', 'run', '--failed', '--all-workspaces', '--yes', '--json']);
    } finally {
      await control(t.sb, 'PATCH', '/faults', { fail_rate: 0, reset_rate: 0 });
    }
    expect(r.stdout, r.stderr).not.toBe('');
    const rows: Array<{ id: number; outcome: string }> = r.json();
    const runs = await runsStarted();
    // Every failed extract was run, once; nothing else was run.
    expect(Object.fromEntries(runs)).toEqual(Object.fromEntries(failed.map((e) => [e.id, 1])));
    for (const e of failed) expect(extracts().find((x) => x.id === e.id)!.status).toBe('running');
    // The summary says so, one row each, and the run ends well.
    expect(rows.map((x) => [x.id, x.outcome])).toEqual(failed.map((e) => [e.id, 'ok']));
    expect(r.code).toBe(0);
  });
});
