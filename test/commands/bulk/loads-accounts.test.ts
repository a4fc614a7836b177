import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { advanceClock, cli, control, useSandbox } from '../../helpers.js';

/**
 * `loads run|pause|unpause` and `accounts enable|disable` across workspaces. The demo agency has
 * one load per workspace (8001 to 8003) and a google_ads connection per workspace.
 */
const t = useSandbox({ buildSeconds: 60 });

async function writes(): Promise<string[]> {
  const journal: Array<{ method: string; path: string; status: number }> = (await control(t.sb, 'GET', '/requests'))
    .results;
  return journal
    .filter((r) => r.method !== 'GET' && !r.path.endsWith('/token') && r.status !== 401)
    .map((r) => `${r.method} ${r.path} ${r.status}`);
}

interface SbExtract {
  id: number;
  workspace_id: number;
  account_entity_id: number;
  connection_id: number;
  status: string;
}
const state = () => t.sb.store.state;

let failedAccounts: SbExtract[] = [];
beforeAll(async () => {
  // Loads: runs of 8001 and 8003 that failed. The sandbox fails a load run whose data table is
  // gone when it ends, which no operation brings about; the state is set as such a run leaves it.
  for (const id of [8001, 8003]) {
    const load = state().loads.find((l) => l.id === id)!;
    load.last_run = {
      id: 9000 + id,
      status: 'failed',
      date_from: null,
      date_to: null,
      started_at: '2026-01-01T00:00:00Z',
      finished_at: '2026-01-01T00:01:00Z',
      rows: null,
      file: null,
      export_id: null,
      error: `Data table ${load.data_table_id} no longer exists.`,
    };
  }
  // Accounts: one account of 101 and one of 102 whose extract's last run failed.
  const extracts = state().extracts as unknown as SbExtract[];
  failedAccounts = [101, 102].map((ws) => extracts.find((e) => e.workspace_id === ws)!);
  for (const e of failedAccounts) {
    await control(t.sb, 'PATCH', '/recipes/extraction-behavior', {
      account_id: e.account_entity_id,
      behavior: 'fails',
    });
    expect((await cli(t.sb, ['extracts', 'run', String(e.id), '-w', String(e.workspace_id)])).code).toBe(0);
  }
  await advanceClock(t.sb, 60);
  await control(t.sb, 'PUT', '/snapshots/failed');
});
beforeEach(async () => {
  await control(t.sb, 'POST', '/snapshots/failed/restore');
  await control(t.sb, 'DELETE', '/requests');
});

describe('loads in bulk', () => {
  it('run --failed runs exactly the loads whose last run failed, across three workspaces', async () => {
    const r = await cli(t.sb, ['loads', 'run', '--failed', '-w', '101,102,103', '--yes', '--json']);
    expect(r.code).toBe(0);
    expect(r.json().map((x: any) => [x.workspace_id, x.id, x.outcome, x.detail])).toEqual([
      [101, 8001, 'ok', 'running'],
      [103, 8003, 'ok', 'running'],
    ]);
    expect(await writes()).toEqual(['PUT /api/v3/loads/8001/run 202', 'PUT /api/v3/loads/8003/run 202']);
  });

  it('--ndjson: one row per line', async () => {
    const r = await cli(t.sb, ['loads', 'run', '--failed', '-w', '101,102,103', '--yes', '--ndjson']);
    expect(r.code).toBe(0);
    expect(
      r.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).id),
    ).toEqual([8001, 8003]);
  });

  it('pause, then unpause, every load of two workspaces', async () => {
    const p = await cli(t.sb, ['loads', 'pause', '-w', '102,103', '--yes']);
    expect(p.code).toBe(0);
    expect(
      p.stdout
        .trim()
        .split('\n')
        .map((l) => l.split('\t').filter((_, i) => i !== 2)),
    ).toEqual([
      ['102', '8002', 'ok', 'paused'],
      ['103', '8003', 'ok', 'paused'],
    ]);
    expect(
      state()
        .loads.filter((l) => l.is_paused)
        .map((l) => l.id),
    ).toEqual([8002, 8003]);
    expect((await cli(t.sb, ['loads', 'unpause', '8002', '8003', '-w', '102,103', '--yes'])).code).toBe(0);
    expect(state().loads.filter((l) => l.is_paused)).toEqual([]);
  });
});

describe('accounts in bulk', () => {
  it('disable --failed --data-source: exactly the accounts whose extract last failed, one request per connection', async () => {
    const r = await cli(t.sb, [
      'accounts',
      'disable',
      '--failed',
      '--data-source',
      'google_ads',
      '--all-workspaces',
      '--yes',
      '--json',
    ]);
    expect(r.code).toBe(0);
    expect(r.json().map((x: any) => [x.workspace_id, x.id, x.outcome, x.detail])).toEqual(
      failedAccounts.map((e) => [e.workspace_id, e.account_entity_id, 'ok', 'disabled']),
    );
    expect(await writes()).toEqual(
      failedAccounts.map((e) => `PATCH /api/v3/connections/${e.connection_id}/accounts/${e.account_entity_id} 200`),
    );
    for (const e of failedAccounts)
      expect(state().accounts.find((a) => a.id === e.account_entity_id)!.enabled_for_embedded_extraction).toBe(false);
  });

  it('enable by ids in two workspaces: only those accounts', async () => {
    const ids = [20002, 20004, 20026];
    const r = await cli(t.sb, [
      'accounts',
      'enable',
      ids.join(','),
      '--data-source',
      'google_ads',
      '-w',
      '101,102',
      '--yes',
    ]);
    expect(r.code).toBe(0);
    expect(await writes()).toEqual([
      'PATCH /api/v3/connections/1001/accounts 200',
      'PATCH /api/v3/connections/1005/accounts/20026 200',
    ]);
    for (const id of ids) expect(state().accounts.find((a) => a.id === id)!.enabled_for_embedded_extraction).toBe(true);
  });

  it('in bulk the accounts are named by data source: without one, exit 2 naming --data-source, nothing sent', async () => {
    const r = await cli(t.sb, ['accounts', 'enable', '--all-workspaces', '--yes']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--data-source');
    expect((await control(t.sb, 'GET', '/requests')).results).toEqual([]);
  });
});
