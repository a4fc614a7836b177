import { beforeEach, describe, expect, it } from 'vitest';
import { cli, control, http, tokenFor, useSandbox, waitUntil } from '../../helpers.js';
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

async function failedRecipe(ws: number, code: string) {
  const token = await tokenFor(t.sb, ws);
  const id = await createRecipe(t.sb, token, 4002);
  await configure(t.sb, token, id, configuration(t.sb, ws, { google_ads: 'all' }));
  await http(t.sb, 'POST', '/_sandbox/recipes/build-errors', { body: { recipe_id: id, code } });
  await http(t.sb, 'POST', `${V31}${id}/build/`, { token });
  await waitBuilt(t.sb, token, id);
  return id;
}

describe('edp recipes status', () => {
  it('at 80 and 40 columns, with an error code, keeps one row per recipe: columns are left out, and said to be', async () => {
    const ok = await builtRecipe(t.sb, await tokenFor(t.sb, 101), 101, 4001, { google_ads: 'all' });
    const bad = await failedRecipe(102, 'data_table_registration_failed');
    for (const color of [false, true]) {
      const env = color ? { FORCE_COLOR: '1' } : { NO_COLOR: '1' };
      const r = await cli(t.sb, ['recipes', 'status', '--all-workspaces'], { tty: true, columns: 80, env });
      expect(r.code).toBe(0);
      const lines = r.stdout
        .replace(/\u001b\[\d+m/g, '')
        .trimEnd()
        .split('\n');
      // A header, then one line per recipe, each within the window, ids and the code whole.
      expect(lines).toHaveLength(3);
      for (const line of lines) expect([...line].length).toBeLessThanOrEqual(80);
      expect(lines[1]).toMatch(new RegExp(`^101 +${ok.id} .*ready_to_work`));
      expect(lines[2]).toMatch(new RegExp(`^102 +${bad} .*failed +data_table_registration_failed$`));
      expect(r.stderr).toContain('left out to fit the window: TITLE, LAST BUILD (a wider window or --json shows them)');
    }
    // At 40 columns even without them it cannot fit: one field per line, every value there.
    const narrow = await cli(t.sb, ['recipes', 'status', '--all-workspaces'], {
      tty: true,
      columns: 40,
      env: { NO_COLOR: '1' },
    });
    for (const line of narrow.stdout.split('\n')) expect([...line].length).toBeLessThanOrEqual(40);
    expect(narrow.stdout).toContain('data_table_registration_failed');
  });

  it('one row per workspace and recipe with state, degraded, not delivered, last build and error code', async () => {
    const ok = await builtRecipe(t.sb, await tokenFor(t.sb, 101), 101, 4001, { google_ads: 'all' });
    const bad = await failedRecipe(102, 'sql_syntax_error');
    const r = await cli(t.sb, ['recipes', 'status', '--all-workspaces', '--json']);
    expect(r.code).toBe(0);
    const rows = r.json();
    expect(rows.map((x: any) => [x.workspace_id, String(x.recipe_id)])).toEqual([
      [101, ok.id],
      [102, bad],
    ]);
    expect(Object.keys(rows[0])).toEqual([
      'workspace_id',
      'recipe_id',
      'title',
      'template_id',
      'state',
      'degraded',
      'not_delivered_count',
      'not_delivered_reasons',
      'last_build_at',
      'error_code',
    ]);
    expect(rows[0]).toMatchObject({
      state: 'ready_to_work',
      degraded: false,
      not_delivered_count: 0,
      error_code: null,
    });
    expect(rows[0].last_build_at).toBe(ok.recipe.last_build_at);
    expect(rows[1]).toMatchObject({ state: 'failed', error_code: 'sql_syntax_error' });
    expect(r.stdout).toContain(`"recipe_id": ${bad}`);
    const table = await cli(t.sb, ['recipes', 'status', '-w', '101,102'], { tty: true });
    expect(table.stdout).toContain('sql_syntax_error');
    expect(table.stdout).toContain('ready');
  });

  it('counts what was not delivered and marks a degraded build', async () => {
    const token = await tokenFor(t.sb, 103);
    const s = t.sb.store.state;
    const conn = s.connections.find((c) => c.workspace_id === 103 && c.datasource_name === 'google_ads')!;
    const quiet = s.accounts.find((a) => a.connection_id === conn.id && a.is_active)!;
    await http(t.sb, 'PATCH', '/_sandbox/recipes/extraction-behavior', {
      body: { account_id: quiet.id, behavior: 'fails' },
    });
    await builtRecipe(t.sb, token, 103, 4001, { google_ads: 'all' });
    const [row] = (await cli(t.sb, ['recipes', 'status', '-w', '103', '--json'])).json();
    expect(row.state).toBe('ready_to_work');
    expect(row.degraded).toBe(true);
    expect(row.not_delivered_count).toBeGreaterThan(0);
    expect(row.not_delivered_reasons.length).toBeGreaterThan(0);
    // Piped: raw values, each in its own column (state, degraded, count, reasons), no display text.
    const piped = await cli(t.sb, ['recipes', 'status', '-w', '103']);
    const cells = piped.stdout.replace(/\n$/, '').split('\t');
    expect(cells.slice(3, 7)).toEqual([
      'ready_to_work',
      'true',
      String(row.not_delivered_count),
      row.not_delivered_reasons.join(','),
    ]);
    expect(piped.stdout).not.toContain('(degraded)');
    // --ndjson: one object per line.
    const nd = await cli(t.sb, ['recipes', 'status', '-w', '103', '--ndjson']);
    const ndLines = nd.stdout.trimEnd().split('\n');
    expect(ndLines).toHaveLength(1);
    expect(JSON.parse(ndLines[0]!)).toMatchObject({ state: 'ready_to_work', degraded: true });
  });

  it('--watch follows running builds until every one has ended, a line per change when not on a terminal', async () => {
    // Builds held until the command has read them running, then ended one by one through the state.
    await control(t.sb, 'PATCH', '/faults', { build_seconds: 60 });
    const ids: Record<number, string> = {};
    for (const ws of [101, 102]) {
      const token = await tokenFor(t.sb, ws);
      const id = await createRecipe(t.sb, token, 4001);
      await configure(t.sb, token, id, configuration(t.sb, ws, { google_ads: 'all' }));
      expect((await http(t.sb, 'POST', `${V31}${id}/build/`, { token })).status).toBe(202);
      ids[ws] = id;
    }
    let stderr = '';
    const run = cli(t.sb, ['recipes', 'status', '-w', '101,102', '--watch', '--poll-interval', '20ms', '--verbose'], {
      onStderr: (all) => (stderr = all),
    });
    const reads = () => stderr.split('GET /api/v3.1/automated-recipes/').length - 1;
    const end = (ws: number) =>
      Object.assign(
        t.sb.store.state.recipes.find((x) => x.id === ids[ws])!,
        { state: 'ready_to_work', build: null },
      );
    await waitUntil(() => reads() >= 2, { what: 'the first reading of both workspaces' });
    end(101);
    await waitUntil(() => /workspace 101 recipe \d+: ready_to_work/.test(stderr), { what: "101's line" });
    end(102);
    const r = await run;
    expect(r.code).toBe(0);
    // Progress on stderr; stdout holds only the final rows, tab-separated raw values.
    expect(r.stderr).toMatch(/workspace 101 recipe \d+: ready_to_work/);
    expect(r.stderr).toMatch(/workspace 102 recipe \d+: ready_to_work/);
    const lines = r.stdout.replace(/\n$/, '').split('\n');
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(line.split('\t')).toHaveLength(9);
    expect(lines.map((l) => l.split('\t')[3])).toEqual(['ready_to_work', 'ready_to_work']);
    const json = await cli(t.sb, [
      'recipes',
      'status',
      '-w',
      '101,102',
      '--watch',
      '--poll-interval',
      '20ms',
      '--json',
    ]);
    expect(json.json().map((x: any) => x.state)).toEqual(['ready_to_work', 'ready_to_work']);
  });

  it('--watch on a terminal redraws the table in place until every build has ended, the scrollback kept', async () => {
    await control(t.sb, 'PATCH', '/faults', { build_seconds: 60 });
    const token = await tokenFor(t.sb, 101);
    const id = await createRecipe(t.sb, token, 4001);
    await configure(t.sb, token, id, configuration(t.sb, 101, { google_ads: 'all' }));
    await http(t.sb, 'POST', `${V31}${id}/build/`, { token });
    // Each redraw goes up over the rows the last one drew and clears below: never the screen.
    const MOVE = /\u001b\[(\d+)F\u001b\[J/;
    const drawingsOf = (all: string) => (all === '' ? [] : all.split(new RegExp(MOVE.source, 'g')));
    let draws = 0;
    const run = cli(t.sb, ['recipes', 'status', '-w', '101', '--watch', '--poll-interval', '20ms'], {
      tty: true,
      onStdout: (all) => (draws = Math.ceil(drawingsOf(all).length / 2)),
    });
    // The build is moved on through the state each time the table has been drawn.
    const recipe = t.sb.store.state.recipes.find((r) => r.id === id)!;
    await waitUntil(() => draws >= 1, { what: 'the first drawing of the table' });
    Object.assign(recipe, { state: 'building_dependencies' });
    await waitUntil(() => draws >= 2, { what: 'a second drawing of the table' });
    Object.assign(recipe, { state: 'ready_to_work', build: null });
    const r = await run;
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('\u001b[2J');
    expect(r.stdout).not.toContain('\u001b[H');
    // [drawing, rows up, drawing, rows up, drawing]: each move is the rows of the drawing before it.
    const parts = drawingsOf(r.stdout);
    const drawings = parts.filter((_p, i) => i % 2 === 0);
    const moves = parts.filter((_p, i) => i % 2 === 1).map(Number);
    expect(drawings).toHaveLength(3);
    expect(moves).toEqual(drawings.slice(0, -1).map((d) => d.split('\n').length - 1));
    // The columns stay where they were as the state moves on: every drawing has the same header.
    expect(new Set(drawings.map((d) => d.split('\n')[0])).size).toBe(1);
    expect(drawings.map((d) => /extracting_data|building_dependencies|ready_to_work/.exec(d)?.[0])).toEqual([
      'extracting_data',
      'building_dependencies',
      'ready_to_work',
    ]);
  });

  it('--watch says what it watches and how to stop; Ctrl-C says the builds go on', async () => {
    await control(t.sb, 'PATCH', '/faults', { build_seconds: 60 });
    const token = await tokenFor(t.sb, 101);
    const id = await createRecipe(t.sb, token, 4001);
    await configure(t.sb, token, id, configuration(t.sb, 101, { google_ads: 'all' }));
    await http(t.sb, 'POST', `${V31}${id}/build/`, { token });
    const controller = new AbortController();
    const r = await cli(t.sb, ['recipes', 'status', '-w', '101', '--watch', '--poll-interval', '20ms'], {
      signal: controller.signal,
      onStderr: (all) => {
        if (all.includes('Ctrl-C stops watching') && !controller.signal.aborted)
          controller.abort(Object.assign(new Error('interrupted'), { name: 'InterruptedError' }));
      },
    });
    expect(r.code).toBe(130);
    expect(r.stderr).toContain('watching 1 build(s) until they end; Ctrl-C stops watching (the builds go on)');
    expect(r.stderr).toContain('stopped watching; the builds go on at the service');
  });

  it('--watch stops at --wait-timeout with exit 8', async () => {
    await control(t.sb, 'PATCH', '/faults', { build_seconds: 30 });
    const token = await tokenFor(t.sb, 101);
    const id = await createRecipe(t.sb, token, 4001);
    await configure(t.sb, token, id, configuration(t.sb, 101, { google_ads: 'all' }));
    await http(t.sb, 'POST', `${V31}${id}/build/`, { token });
    const r = await cli(t.sb, [
      'recipes',
      'status',
      '-w',
      '101',
      '--watch',
      '--poll-interval',
      '10ms',
      '--wait-timeout',
      '100ms',
    ]);
    expect(r.code).toBe(8);
    expect(r.stderr).toContain('still running');
  });

  it('--watch pauses no longer than the time left: a first pause past --wait-timeout ends at the deadline', async () => {
    await control(t.sb, 'PATCH', '/faults', { build_seconds: 30 });
    const token = await tokenFor(t.sb, 101);
    const id = await createRecipe(t.sb, token, 4001);
    await configure(t.sb, token, id, configuration(t.sb, 101, { google_ads: 'all' }));
    await http(t.sb, 'POST', `${V31}${id}/build/`, { token });
    // No pause of the whole --poll-interval: the first one ends at the deadline.
    const r = await cli(t.sb, [
      'recipes',
      'status',
      '-w',
      '101',
      '--watch',
      '--poll-interval',
      '24h',
      '--wait-timeout',
      '200ms',
    ]);
    expect(r.code).toBe(8);
    expect(r.stderr).toContain('still running');
    expect(r.pauses.length).toBeGreaterThan(0);
    expect(r.pauses.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(200);
  });

  it('refuses -w together with --all-workspaces (exit 2)', async () => {
    const r = await cli({ url: 'http://127.0.0.1:9' }, ['recipes', 'status', '-w', '101', '--all-workspaces']);
    expect(r.code).toBe(2);
  });
});
