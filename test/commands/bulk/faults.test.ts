import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { advanceClock, cli, control, useSandbox } from '../../helpers.js';
import { expectTrueSummary } from './truth.js';

/**
 * Bulk actions on a bad day (docs/faults.md): with `--fail-rate` (503, nothing done) and
 * `--reset-rate` (done, then the connection dropped before the answer), no run is started
 * twice, none is left with an unknown outcome, and the summary says what happened. Six extracts of three
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
    { fail_rate: 0.2, reset_rate: 0 },
    { fail_rate: 0, reset_rate: 0.2 },
    { fail_rate: 0.1, reset_rate: 0.1 },
  ])('%o: no failed extract is run twice or left unknown, and the summary is true', async (faults) => {
    await control(t.sb, 'PATCH', '/faults', faults);
    let r;
    try {
      r = await cli(t.sb, ['extracts', 'run', '--failed', '--all-workspaces', '--yes', '--json']);
    } finally {
      await control(t.sb, 'PATCH', '/faults', { fail_rate: 0, reset_rate: 0 });
    }
    const started = Object.fromEntries([...(await runsStarted())].map(([id, n]) => [String(id), n]));
    expectTrueSummary(
      r.json(),
      started,
      failed.map((e) => String(e.id)),
      r.code,
    );
    for (const id of Object.keys(started)) expect(extracts().find((x) => String(x.id) === id)!.status).toBe('running');
  });
});
