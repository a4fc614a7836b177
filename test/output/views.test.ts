import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Output, fitProse, fitWidths, plainText, truncate, type Column } from '../../src/output/output.js';
import { closest, didYouMean, editDistance } from '../../src/util/did-you-mean.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { cli, sandbox } from '../helpers.js';

const BOX = /[┌┐└┘├┤┬┴┼│─]/;
const ESC = /\u001b/;
const W = ['-w', '101'];

/** Output over fake streams: a terminal `columns` wide, or a pipe; `now`, the run's clock. */
function outputFor(terminal: { columns: number } | undefined, now?: () => number) {
  const stdout = Object.assign(new PassThrough(), terminal ? { isTTY: true, columns: terminal.columns } : {});
  const stderr = new PassThrough();
  let text = '';
  stdout.on('data', (d) => (text += d));
  const output = new Output(
    { stdin: new PassThrough(), stdout, stderr, env: { NO_COLOR: '1' }, now },
    { json: false, ndjson: false, quiet: false, verbose: false, color: true },
  );
  return { output, text: () => text };
}

describe('piped output: raw tab-separated values', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await sandbox();
  });
  afterAll(() => sb.close());

  it('extract-templates get and tables get: field<TAB>value lines, nested values as compact JSON, no box drawing', async () => {
    for (const argv of [
      ['extract-templates', 'get', '302'],
      ['tables', 'get', '5001'],
    ]) {
      const r = await cli(sb, [...argv, ...W]);
      expect(r.code).toBe(0);
      expect(r.stdout).not.toMatch(BOX);
      expect(r.stdout).not.toMatch(ESC);
      const lines = r.stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split('\t'));
      for (const line of lines) expect(line, argv.join(' ')).toHaveLength(2);
      const fields = Object.fromEntries(lines);
      expect(fields.id).toBe(argv[2]);
      expect(JSON.parse(fields.fields).length).toBeGreaterThan(0);
      expect(JSON.parse(fields.fields)[0]).toHaveProperty('name');
      // On a terminal the same views draw the fields table, with its header.
      const human = await cli(sb, [...argv, ...W], { tty: true, env: { NO_COLOR: '1' } });
      expect(human.stdout).toMatch(/^NAME {2,}/m);
    }
  });

  it('key/value details are not space-padded and use the API field names', async () => {
    const r = await cli(sb, ['workspaces', 'get', '101']);
    expect(r.stdout.split('\n')).toContain('id\t101');
    expect(r.stdout).not.toMatch(/ {2}/);
    const human = await cli(sb, ['workspaces', 'get', '101'], { tty: true, env: { NO_COLOR: '1' } });
    expect(human.stdout).toMatch(/title {2}Acme Retail/);
  });

  it('cells carry raw values, not display text: recipe state, paused extract status, booleans', async () => {
    const created = await cli(sb, ['recipes', 'create', ...W, '--template', '4001', '--title', 'Raw', '--json']);
    expect(created.code).toBe(0);
    const notBuilt = await cli(sb, ['recipes', 'list', ...W]);
    expect(notBuilt.stdout.trimEnd().split('\t')[3]).toBe('');
    expect((await cli(sb, ['recipes', 'list', ...W], { tty: true })).stdout).toContain('not built');
    Object.assign(sb.store.state.recipes[0] as object, { state: 'ready_to_work', degraded: true });
    const degraded = await cli(sb, ['recipes', 'list', ...W]);
    expect(degraded.stdout.split('\t')[3]).toBe('ready_to_work');
    expect((await cli(sb, ['recipes', 'list', ...W], { tty: true })).stdout).toContain('ready_to_work (degraded)');
    const recipeId = /"recipe_id": (\d+)/.exec(created.stdout)![1]!;
    const detail = await cli(sb, ['recipes', 'get', recipeId, ...W]);
    const pairs = detail.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => l.split('\t'));
    for (const pair of pairs) expect(pair).toHaveLength(2);
    expect(pairs).toContainEqual(['recipe_id', recipeId]);
    expect(pairs).toContainEqual(['state', 'ready_to_work']);
    expect(pairs).toContainEqual(['degraded', 'true']);
    expect((await cli(sb, ['recipes', 'get', recipeId, ...W], { tty: true, env: { NO_COLOR: '1' } })).stdout).toMatch(
      /state\s+ready_to_work \(degraded\)/,
    );

    expect((await cli(sb, ['extracts', 'pause', '40001', ...W])).code).toBe(0);
    const piped = await cli(sb, ['extracts', 'list', ...W]);
    const row = piped.stdout
      .split('\n')
      .find((l) => l.startsWith('40001\t'))!
      .split('\t');
    expect(row[5]).toBe('false');
    expect(row[6]).not.toContain('paused');
    expect((await cli(sb, ['extracts', 'list', ...W], { tty: true })).stdout).toMatch(/paused \(manual\)/);
  });

  it('no header and no colour when piped, even for lists that have one on a terminal', async () => {
    const r = await cli(sb, ['workspaces', 'list']);
    expect(r.stdout.split('\n')[0]).toBe('101\tAcme Retail');
    expect(r.stdout).not.toMatch(ESC);
  });

  it('on a terminal a table fits its width: the widest cell is cut with an ellipsis, nothing wraps', async () => {
    const long = `Workspace ${'with a very long title '.repeat(8)}`.trim();
    expect((await cli(sb, ['workspaces', 'create', '--title', long])).code).toBe(0);
    const r = await cli(sb, ['workspaces', 'list'], { tty: true, env: { NO_COLOR: '1' } });
    const lines = r.stdout.trimEnd().split('\n');
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(120);
    expect(r.stdout).toContain('Workspace with a very long title');
    expect(r.stdout).toContain('…');
    expect(r.stdout).not.toContain(long);
    // piped, the whole value
    expect((await cli(sb, ['workspaces', 'list'])).stdout).toContain(long);
  });
});

describe('tables at a terminal', () => {
  type Row = { id: number; title: string; note: string };
  const columns: Array<Column<Row>> = [
    { header: 'ID', value: (r) => r.id },
    { header: 'TITLE', value: (r) => r.title },
    { header: 'NOTE', value: (r) => r.note },
  ];
  const rows: Row[] = [{ id: 1, title: 'a title that is long enough to be cut', note: 'short note' }];

  it('truncates the widest column first to fit stdout.columns', async () => {
    const { output, text } = outputFor({ columns: 40 });
    await output.table(columns, rows);
    const lines = text().trimEnd().split('\n');
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(40);
    expect(text()).toContain('short note');
    expect(text()).toMatch(/a title that[^\n]*…/);
    expect(lines).toHaveLength(2);
  });

  it('keeps every cell whole when the terminal is wide enough', async () => {
    const { output, text } = outputFor({ columns: 200 });
    await output.table(columns, rows);
    expect(text()).toContain('a title that is long enough to be cut');
    expect(text()).not.toContain('…');
  });

  it('never cuts a state, an id or a code: free text gives up its width first, at 80 and 140 columns', async () => {
    type R = { id: string; title: string; state: string };
    const cols: Array<Column<R>> = [
      { header: 'ID', value: (r) => r.id },
      { header: 'TITLE', value: (r) => r.title },
      { header: 'STATE', keep: true, value: (r) => r.state },
    ];
    const recipe = {
      id: '9007199254740993',
      title: 'Paid Media Performance across every channel of the agency and then some more words',
      state: 'ready_to_work (degraded)',
    };
    for (const width of [80, 140]) {
      const { output, text } = outputFor({ columns: width });
      await output.table(cols, [recipe]);
      for (const line of text().trimEnd().split('\n')) expect([...line].length).toBeLessThanOrEqual(width);
      expect(text()).toContain('ready_to_work (degraded)');
      expect(text()).toContain('9007199254740993');
    }
  });

  it('too narrow for the kept columns: one field per line, wrapped to the window', async () => {
    const { output, text } = outputFor({ columns: 30 });
    const cols: Array<Column<Row>> = [
      ...columns,
      { header: 'STATE', keep: true, value: () => 'ready_to_work (degraded)' },
    ];
    await output.table(cols, [...rows, { id: 2, title: 'second', note: 'n' }]);
    const lines = text().trimEnd().split('\n');
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(30);
    expect(text()).not.toMatch(/[│┌└]/);
    expect(lines[0]).toBe('ID     1');
    expect(text()).toContain('STATE  ready_to_work');
    // Every word of the long title is still there, wrapped.
    expect(text().replace(/\s+/g, ' ')).toContain('a title that is long enough to be cut');
    expect(lines).toContain('');
  });

  it('piped, the same table is tab-separated raw rows', async () => {
    const { output, text } = outputFor(undefined);
    await output.table(columns, rows);
    expect(text()).toBe('1\ta title that is long enough to be cut\tshort note\n');
  });
});

describe('details at a terminal', () => {
  it('a time reads as in tables, relative to now; other values are as given', () => {
    const { output, text } = outputFor({ columns: 80 });
    const hourAgo = new Date(Date.now() - 3600_000 - 5_000).toISOString();
    output.details([
      ['id', '7'],
      ['updated', hourAgo],
      ['title', '2026-11-29 is a date in a title'],
    ]);
    expect(text()).toBe(`id       7\nupdated  1 hour ago\ntitle    2026-11-29 is a date in a title\n`);
  });

  it("times are relative to the run's clock (IO.now), in details and tables alike", async () => {
    const now = Date.parse('2031-03-10T12:00:00Z');
    const { output, text } = outputFor({ columns: 80 }, () => now);
    output.details([['updated', '2031-03-10T09:00:00Z']]);
    await output.table([{ header: 'EXPIRES', value: (r: { at: string }) => r.at }], [{ at: '2031-03-12T12:00:00Z' }]);
    expect(text()).toBe('updated  3 hours ago\nEXPIRES\nin 2 days\n');
  });
});

describe('fitProse', () => {
  it('breaks at spaces, keeps words whole, continues two spaces in; a line that fits is unchanged', () => {
    expect(fitProse('  one two three four', 12)).toBe('  one two\n    three\n    four');
    expect(fitProse('  averyveryverylongword x', 8)).toBe('  averyveryverylongword\n    x');
    expect(fitProse('short', 12)).toBe('short');
    expect(fitProse('no width known here', Infinity)).toBe('no width known here');
  });
});

describe('pure parts', () => {
  it('plainText: raw values for scripts', () => {
    expect(plainText(null)).toBe('');
    expect(plainText(true)).toBe('true');
    expect(plainText({ a: [1, 2] })).toBe('{"a":[1,2]}');
    expect(plainText('a\tb\nc')).toBe('a b c');
    expect(plainText('\u001b[2J')).toBe('\\x1b[2J');
  });

  it('truncate and fitWidths', () => {
    expect(truncate('abcdef', 4)).toBe('abc…');
    expect(truncate('abc', 4)).toBe('abc');
    expect(fitWidths([2, 30, 10], 30)).toEqual([2, 18, 10]);
    expect(fitWidths([20, 20], 30)).toEqual([15, 15]);
    expect(fitWidths([10, 10], 4)).toBeUndefined();
    // Kept columns are never cut: the free text gives up its width first, whatever its place.
    expect(fitWidths([24, 30, 10], 40, [true, false, true])).toEqual([24, 6, 10]);
    expect(fitWidths([24, 30, 10], 30, [true, false, true])).toBeUndefined();
  });

  it('did you mean: transpositions, typos and contained names, best first', () => {
    expect(editDistance('goolge_ads', 'google_ads')).toBe(1);
    expect(editDistance('Google_Ads', 'google_ads')).toBe(0);
    expect(closest('google_adz', ['google_ads', 'facebook_ads', 'linkedin_ads', 'google_analytics_4'])).toEqual([
      'google_ads',
    ]);
    expect(closest('Paid Media', ['Paid Media Performance', 'Ad Spend Base'])).toEqual(['Paid Media Performance']);
    expect(closest('zzz', ['google_ads'])).toEqual([]);
    expect(didYouMean('s3x', ['s3'])).toBe('did you mean s3?');
    expect(didYouMean('recipe_activate', ['recipe_activated', 'recipe_deactivated', 'load_completed'])).toBe(
      'did you mean recipe_activated or recipe_deactivated?',
    );
    expect(didYouMean('nothing', ['google_ads'])).toBe('');
  });
});
