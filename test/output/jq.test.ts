import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { cli, sandbox } from '../helpers.js';
import { resetRecipes } from '../fixtures/recipes.js';

let sb: Sandbox;
beforeEach(async () => {
  sb = await sandbox();
});
afterEach(async () => {
  await sb.close();
});
beforeEach(() => {
  resetRecipes(sb);
  sb.store.state.agency.flags.recipe_pipeline = true;
});

const W = ['-w', '101'];
/** A service address where nothing listens: a request sent there fails with exit 1. */
const NOWHERE = { env: { EDP_BASE_URL: 'http://127.0.0.1:9' } };

describe('--jq', () => {
  it('keeps a recipe id beyond 2^53 exact through the filter, and prints it bare', async () => {
    const created = await cli(sb, [
      'recipes',
      'create',
      ...W,
      '--template',
      '4001',
      '--title',
      'Paid media',
      '--jq',
      '.recipe_id',
    ]);
    expect(created.code).toBe(0);
    expect(created.stdout).toBe('9007199254740993\n');
    const listed = await cli(sb, ['recipes', 'list', ...W, '--jq', '.[] | {id: .recipe_id, title}']);
    expect(listed.stdout).toBe('{"id":9007199254740993,"title":"Paid media"}\n');
  });

  it('prints strings raw and other values as compact JSON, one per line', async () => {
    const r = await cli(sb, ['workspaces', 'list', '--jq', '.[0] | .title, .id, [.id]']);
    expect(r.code).toBe(0);
    const [title, id, array] = r.stdout.trimEnd().split('\n');
    expect(title).not.toMatch(/^"/);
    expect(id).toMatch(/^\d+$/);
    expect(array).toBe(`[${id}]`);
  });

  it('filters each item of --ndjson', async () => {
    const r = await cli(sb, ['workspaces', 'list', '--ndjson', '--jq', '.id']);
    const json = await cli(sb, ['workspaces', 'list', '--json']);
    expect(r.stdout).toBe(
      json
        .json()
        .map((w: { id: number }) => `${w.id}\n`)
        .join(''),
    );
  });

  it('refuses an expression that does not compile with exit 2, naming --jq, before any request', async () => {
    const r = await cli(undefined, ['workspaces', 'list', '--jq', '.[] | {'], NOWHERE);
    expect(r.code).toBe(2);
    expect(r.errorJson().error.message).toMatch(/^--jq: the expression does not compile: .*syntax error/);
    expect(r.stdout).toBe('');
    const blank = await cli(undefined, ['workspaces', 'list', '--jq', ' '], NOWHERE);
    expect(blank.code).toBe(2);
    expect(blank.errorJson().error.message).toContain('--jq needs a jq expression');
  });

  it('at a terminal a --jq error is text for a person, as gh prints it; piped it stays the JSON document', async () => {
    const r = await cli(undefined, ['workspaces', 'list', '--jq', '.[] | {'], {
      ...NOWHERE,
      stderrTty: true,
      env: { ...NOWHERE.env, NO_COLOR: '1' },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: --jq: the expression does not compile: .*syntax error/);
    const parse = await cli(undefined, ['workspaces', 'lsit', '--jq', '.'], { stderrTty: true });
    expect(parse.code).toBe(2);
    expect(parse.stderr).toMatch(/^error: /);
  });

  it('compiles without running: an endless expression is no usage error', async () => {
    // `repeat(.)` never ends if run; on the list it is cut short by limit().
    const r = await cli(sb, ['workspaces', 'list', '--jq', '# first three\n[limit(3; repeat(1))] # done']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('[1,1,1]\n');
  });

  it('a runtime error of the filter is exit 1 and says the command ran', async () => {
    const r = await cli(sb, ['workspaces', 'list', '--jq', '.foo']);
    expect(r.code).toBe(1);
    // --jq implies --json, so the error is the JSON error document too.
    expect(r.errorJson().error.message).toMatch(
      /^--jq: the command ran, but its output could not be filtered: .*Cannot index array with string "foo"/,
    );
    expect(process.exitCode ?? 0).toBe(0);
  });

  it('escapes control characters in raw strings at a terminal, not when piped', async () => {
    const ws = sb.store.state.workspaces[0]!;
    const title = ws.title;
    ws.title = 'Evil\u001b[2J';
    try {
      const tty = await cli(sb, ['workspaces', 'list', '--jq', '.[0].title'], { tty: true });
      expect(tty.stdout).toBe('Evil\\x1b[2J\n');
      const piped = await cli(sb, ['workspaces', 'list', '--jq', '.[0].title']);
      expect(piped.stdout).toBe('Evil\u001b[2J\n');
    } finally {
      ws.title = title;
    }
  });

  it('a failed command prints its error and no filtered output', async () => {
    const r = await cli(sb, ['recipes', 'get', '9007199254740993', ...W, '--jq', '.recipe_id']);
    expect(r.code).toBe(5);
    expect(r.stdout).toBe('');
  });
});

describe('--jq on ids beyond 2^53', () => {
  it('selects by comparing with a number literal and by tostring, digit for digit', async () => {
    resetRecipes(sb);
    sb.store.state.agency.flags.recipe_pipeline = true;
    const created: string[] = [];
    for (const [template, title] of [
      ['4001', 'First'],
      ['4003', 'Second'],
    ]) {
      const r = await cli(sb, [
        'recipes',
        'create',
        ...W,
        '--template',
        template!,
        '--title',
        title!,
        '--jq',
        '.recipe_id',
      ]);
      expect(r.code, r.stderr).toBe(0);
      created.push(r.stdout.trim());
    }
    const [first, second] = created as [string, string];
    // neighbours beyond 2^53: a double could not tell them apart
    expect(BigInt(second) - BigInt(first)).toBe(1n);
    expect(BigInt(first) > 2n ** 53n).toBe(true);
    const picked = await cli(sb, ['recipes', 'list', ...W, '--jq', `.[] | select(.recipe_id == ${second}) | .title`]);
    expect(picked.stdout).toBe('Second\n');
    const text = await cli(sb, [
      'recipes',
      'list',
      ...W,
      '--jq',
      '.[] | select(.title == "First") | .recipe_id | tostring',
    ]);
    expect(text.stdout).toBe(`${first}\n`);
  });
});
