import { execFileSync } from 'node:child_process';
import { beforeEach, describe, expect, it } from 'vitest';
import { advanceClock, cli, control, http, tokenFor, useSandbox } from '../../helpers.js';
import {
  V31,
  builtRecipe,
  configuration,
  configure,
  createRecipe,
  resetRecipes,
  waitBuilt,
} from '../../fixtures/recipes.js';

const t = useSandbox({ buildSeconds: 0 }, [], { each: true });
beforeEach(async () => {
  resetRecipes(t.sb);
  await control(t.sb, 'PATCH', '/faults', { build_seconds: 0 });
});

/** A recipe whose build fails: it has never succeeded. */
async function failedRecipe(ws: number) {
  const token = await tokenFor(t.sb, ws);
  const id = await createRecipe(t.sb, token, 4002);
  await configure(t.sb, token, id, configuration(t.sb, ws, { google_ads: 'all' }));
  await http(t.sb, 'POST', '/_sandbox/recipes/build-errors', { body: { recipe_id: id, code: 'sql_syntax_error' } });
  await http(t.sb, 'POST', `${V31}${id}/build/`, { token });
  await waitBuilt(t.sb, token, id);
  return id;
}

/** The age the service's clock gives a time: its Date header is whole seconds. */
async function ageOf(iso: string): Promise<number> {
  const { now } = await control(t.sb, 'GET', '/clock');
  return Math.round((Math.floor(Date.parse(now) / 1000) * 1000 - Date.parse(iso)) / 1000);
}

const ids = (rows: any[]) => rows.map((r) => ({ ...r, recipe_ids: r.recipe_ids.map(String) }));

describe('edp freshness', () => {
  it('one row per workspace and data source, aged by the sandbox clock: exit 0 within --max-age, 1 past it', async () => {
    const ok = await builtRecipe(t.sb, await tokenFor(t.sb, 101), 101, 4001, { google_ads: 'all' });
    await advanceClock(t.sb, 2 * 3600);
    const age = await ageOf(ok.recipe.last_build_at);
    expect(age).toBeGreaterThanOrEqual(7199);
    const within = await cli(t.sb, ['freshness', '-w', '101', '--max-age', '3h', '--json']);
    expect(within.code).toBe(0);
    expect(ids(within.json())).toEqual([
      {
        workspace_id: 101,
        data_source: 'google_ads',
        recipe_ids: [ok.id],
        last_build_at: ok.recipe.last_build_at,
        build_age_seconds: age,
        extraction_delivered: true,
        not_delivered_accounts: [],
        degraded: false,
        stale: false,
        error: null,
      },
    ]);
    const past = await cli(t.sb, ['freshness', '-w', '101', '--max-age', '1h', '--format', 'json']);
    expect(past.code).toBe(1);
    expect(past.json()[0]).toMatchObject({ build_age_seconds: age, stale: true });
    // The default is 24 h: a day later the same build is stale.
    expect((await cli(t.sb, ['freshness', '-w', '101'])).code).toBe(0);
    await advanceClock(t.sb, 23 * 3600);
    const day = await cli(t.sb, ['freshness', '-w', '101']);
    expect(day.code).toBe(1);
    expect(day.stdout.split('\t')).toContain('stale');
  });

  it('a recipe that never succeeded counts as older than any --max-age; not delivered accounts and degraded are shown', async () => {
    const bad = await failedRecipe(102);
    const token = await tokenFor(t.sb, 103);
    const s = t.sb.store.state;
    const conn = s.connections.find((c) => c.workspace_id === 103 && c.datasource_name === 'google_ads')!;
    const quiet = s.accounts.find((a) => a.connection_id === conn.id && a.is_active)!;
    await http(t.sb, 'PATCH', '/_sandbox/recipes/extraction-behavior', {
      body: { account_id: quiet.id, behavior: 'fails' },
    });
    await builtRecipe(t.sb, token, 103, 4001, { google_ads: 'all' });
    const r = await cli(t.sb, ['freshness', '-w', '102,103', '--max-age', '500h', '--json']);
    expect(r.code).toBe(1);
    const [never, degraded] = r.json();
    expect(never).toMatchObject({ workspace_id: 102, last_build_at: null, build_age_seconds: null, stale: true });
    expect(never.recipe_ids.map(String)).toEqual([bad]);
    expect(degraded).toMatchObject({ workspace_id: 103, degraded: true, stale: false, extraction_delivered: true });
    expect(degraded.not_delivered_accounts.map(String)).toEqual([String(quiet.id)]);
    const table = await cli(t.sb, ['freshness', '-w', '102,103', '--max-age', '500h'], { tty: true });
    expect(table.stdout).toMatch(/102 +google_ads .*never/);
    expect(table.stdout).toContain('stale');
    expect(table.stdout).toContain('fresh');
    // The time of the build itself, in UTC; its age by the service's clock beside it.
    const built = new Date(degraded.last_build_at).toISOString().slice(0, 16).replace('T', ' ');
    expect(table.stdout).toMatch(new RegExp(`103 +google_ads .*${built} UTC +\\d+ s +delivered`));
  });

  it('--format csv has a header row and RFC 4180 records, read back by a standard CSV reader', async () => {
    const a = await builtRecipe(t.sb, await tokenFor(t.sb, 101), 101, 4001, { google_ads: 'all' });
    await advanceClock(t.sb, 60);
    const r = await cli(t.sb, ['freshness', '-w', '101,104', '--format', 'csv']);
    expect(r.code).toBe(5);
    expect(r.stdout.endsWith('\r\n')).toBe(true);
    const read = execFileSync(
      'python3',
      ['-c', 'import csv, json, sys; print(json.dumps(list(csv.reader(sys.stdin))))'],
      { input: r.stdout },
    );
    const [header, ...records] = JSON.parse(String(read)) as string[][];
    expect(header).toEqual([
      'workspace_id',
      'data_source',
      'recipe_ids',
      'last_build_at',
      'build_age_seconds',
      'extraction_delivered',
      'not_delivered_accounts',
      'degraded',
      'stale',
      'error',
    ]);
    expect(records).toHaveLength(2);
    expect(records[0]).toEqual([
      '101',
      'google_ads',
      a.id,
      a.recipe.last_build_at,
      String(await ageOf(a.recipe.last_build_at)),
      'true',
      '',
      'false',
      'false',
      '',
    ]);
    // The failing workspace's row: its error, whole, whatever commas or quotes it holds.
    expect(records[1]!.slice(0, 2)).toEqual(['104', '']);
    expect(records[1]![9]).toContain('104');
    expect(r.stderr).toContain('workspace 104');
  });

  it('--format markdown is a table for a ticket, a workspace that cannot be read has an error row', async () => {
    await builtRecipe(t.sb, await tokenFor(t.sb, 101), 101, 4001, { google_ads: 'all', facebook_ads: 'all' });
    const r = await cli(t.sb, ['freshness', '-w', '101,104', '--format', 'markdown']);
    expect(r.code).toBe(5);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('### edp freshness');
    const table = lines.filter((l) => l.startsWith('|'));
    expect(table[0]).toBe(
      '| workspace | data source | recipes | last build | age | extraction | not delivered | degraded | status |',
    );
    expect(table[1]).toBe('|---|---|---|---|---|---|---|---|---|');
    expect(table.slice(2).map((l) => l.split(' | ').slice(0, 2))).toEqual([
      ['| 101', 'facebook_ads'],
      ['| 101', 'google_ads'],
      ['| 104', ''],
    ]);
    for (const row of table) expect(row.split(/(?<!\\)\|/)).toHaveLength(11);
    expect(table[4]).toMatch(/error: .*104/);
  });

  it('--all-workspaces reads every workspace; a missing scope or a bad flag is exit 2 with nothing sent', async () => {
    await builtRecipe(t.sb, await tokenFor(t.sb, 101), 101, 4001, { google_ads: 'all' });
    await builtRecipe(t.sb, await tokenFor(t.sb, 103), 103, 4001, { google_ads: 'all' });
    const all = await cli(t.sb, ['freshness', '--all-workspaces', '--json']);
    expect(all.code).toBe(0);
    expect(all.json().map((r: any) => r.workspace_id)).toEqual([101, 103]);
    const nowhere = { url: 'http://127.0.0.1:9' };
    for (const [argv, flag] of [
      [['freshness'], '--all-workspaces'],
      [['freshness', '-w', '101', '--all-workspaces'], '--all-workspaces'],
      [['freshness', '-w', '101', '--max-age', 'soon'], '--max-age'],
      [['freshness', '-w', '101', '--format', 'xml'], '--format'],
      [['freshness', '-w', '101', '--format', 'csv', '--json'], '--format'],
    ] as const) {
      const r = await cli(nowhere, [...argv], { env: { EDP_WORKSPACE: undefined } });
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr).toContain(flag);
    }
  });
});
