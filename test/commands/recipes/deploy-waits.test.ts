import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../../src/cli.js';
import { elapsedText } from '../../../src/commands/shared/fleet-progress.js';
import type { Sandbox } from '../../../src/sandbox/index.js';
import {
  PASSWORD,
  RECIPE_READ,
  USERNAME,
  advanceClockOnRead,
  cli,
  tempDir,
  tokenFor,
  useSandbox,
} from '../../helpers.js';
import { configuration, configure, createRecipe, resetRecipes } from '../../fixtures/recipes.js';
import { FAST } from '../../fixtures/files.js';
import { forward, listen, passOrFail, reply } from '../../fixtures/proxy.js';

const DEPLOY = [
  'recipes',
  'deploy',
  '--template',
  '4001',
  '--data-source',
  'google_ads',
  '--accounts',
  'all-active',
  ...FAST,
];
const config = tempDir('edp-waits-');

/**
 * Runs the command line and interrupts it (as Ctrl-C does) once stderr matches `when`, or when
 * `when` (a function) calls the abort it is given.
 */
async function interruptWhen(
  sb: Sandbox | { url: string },
  argv: string[],
  when: RegExp | ((abort: () => void) => void),
) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  stdin.end();
  const controller = new AbortController();
  const abort = () => {
    if (!controller.signal.aborted)
      controller.abort(Object.assign(new Error('interrupted'), { name: 'InterruptedError' }));
  };
  let out = '';
  let err = '';
  stdout.on('data', (d) => (out += d));
  stderr.on('data', (d) => {
    err += d;
    if (when instanceof RegExp && when.test(err)) abort();
  });
  if (typeof when === 'function') when(abort);
  const env = {
    PATH: process.env.PATH,
    EDP_CONFIG_DIR: config.dir,
    EDP_BASE_URL: sb.url,
    EDP_USERNAME: USERNAME,
    EDP_PASSWORD: PASSWORD,
  };
  const code = await main(argv, { stdin, stdout, stderr, env }, controller.signal);
  return { code, stdout: out, stderr: err, interrupted: controller.signal.aborted };
}

afterAll(() => config.remove());

describe('a build that takes its time', () => {
  // Each build step takes 30 s of the sandbox's clock. Where a test moves it on each reading of
  // a recipe, the command reads every state once, however fast it polls or the machine runs.
  const t = useSandbox({ buildSeconds: 30 });
  beforeEach(() => resetRecipes(t.sb));

  it("a fleet deploy shows each workspace's build states with the time taken, one line per change", async () => {
    advanceClockOnRead(t.sb, RECIPE_READ, 30);
    const r = await cli(t.sb, [
      '-w',
      '101,102',
      ...DEPLOY.map((a) => (a === 'all-active' ? 'remote:123-456-7801' : a)),
    ]);
    expect(r.code, r.stderr).toBe(0);
    for (const ws of [101, 102]) {
      expect(r.stderr).toMatch(new RegExp(`\\[${ws}\\] … 6/7 build: extracting_data \\(\\d+s\\)`));
      expect(r.stderr).toMatch(new RegExp(`\\[${ws}\\] … 6/7 build: building_dependencies \\(\\d+s\\)`));
      expect(r.stderr).toMatch(new RegExp(`\\[${ws}\\] ✓ 6/7 built: ready_to_work`));
    }
    // each state once per workspace, not once per read
    expect(r.stderr.match(/\[101\] … 6\/7 build: extracting_data/g)).toHaveLength(1);
  });

  it('one workspace, piped or at a pretend terminal with stderr piped: a line per state change', async () => {
    advanceClockOnRead(t.sb, RECIPE_READ, 30);
    for (const tty of [false, true]) {
      resetRecipes(t.sb);
      const r = await cli(t.sb, ['-w', '101', ...DEPLOY], { tty });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/… 6\/7 build: extracting_data \(\d+s\)/);
      expect(r.stderr).toMatch(/… 6\/7 build: building_dependencies \(\d+s\)/);
      const quiet = await cli(t.sb, ['-w', '101', ...DEPLOY, '--rebuild', '--quiet'], { tty });
      expect(quiet.code).toBe(0);
      expect(quiet.stderr).not.toContain('6/7 build:');
    }
  });

  /** Runs the command line with stdin, stdout and stderr all terminals. */
  async function atRealTerminal(argv: string[], onErr?: (all: string) => void) {
    const stdin = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => undefined });
    const stdout = Object.assign(new PassThrough(), { isTTY: true, columns: 400 });
    // what ora needs of a terminal stream to redraw its line
    const stderr = Object.assign(new PassThrough(), {
      isTTY: true,
      columns: 400,
      cursorTo: () => true,
      clearLine: () => true,
      moveCursor: () => true,
    });
    let err = '';
    stderr.on('data', (d) => {
      err += d;
      onErr?.(err);
    });
    stdout.resume();
    const env = {
      PATH: process.env.PATH,
      EDP_CONFIG_DIR: config.dir,
      EDP_BASE_URL: t.sb.url,
      EDP_USERNAME: USERNAME,
      EDP_PASSWORD: PASSWORD,
    };
    const code = await main(argv, { stdin, stdout, stderr, env });
    // colours and cursor control out, the text stays
    return { code, err: err.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '') };
  }

  it("a fleet at a real terminal: a live line with each workspace's state and time, and the lines above it", async () => {
    advanceClockOnRead(t.sb, RECIPE_READ, 30);
    const { code, err } = await atRealTerminal([
      '-w',
      '101,102',
      ...DEPLOY.map((a) => (a === 'all-active' ? 'remote:123-456-7801' : a)),
    ]);
    expect(code, err).toBe(0);
    expect(err).toMatch(/\d\/2 workspaces done; \[10[12]\] 6\/7 build: (extracting_data|building_dependencies) \d+s/);
    expect(err).toMatch(/\[101\] … 6\/7 build: extracting_data \(\d+s\)/);
  });

  it("one workspace at a real terminal: the spinner's text follows the state with the time taken", async () => {
    // The build moves on once the spinner has drawn its state.
    const drawn = new Set<string>();
    const { code, err } = await atRealTerminal(['-w', '101', ...DEPLOY], (all) => {
      for (const state of ['extracting_data', 'building_dependencies'])
        if (!drawn.has(state) && all.includes(`6/7 build: ${state}`)) {
          drawn.add(state);
          t.sb.store.clock.advance(30_000);
        }
    });
    expect(code).toBe(0);
    expect(err).toMatch(/6\/7 build: extracting_data \(\d+s\)/);
    // the spinner redraws one line: no line per state change
    expect(err).not.toContain('… 6/7 build:');
  });

  it('elapsed time reads as seconds, then minutes and seconds', () => {
    expect([elapsedText(0), elapsedText(44_600), elapsedText(125_000)]).toEqual(['0s', '45s', '2m05s']);
  });
});

describe('Ctrl-C while waiting', () => {
  const t = useSandbox({ buildSeconds: 60 });
  let token: string;
  beforeAll(async () => {
    token = await tokenFor(t.sb, 101);
  });
  beforeEach(() => resetRecipes(t.sb));

  it('recipes build --wait: exit 130, says the build continues and prints the poll command', async () => {
    const id = await createRecipe(t.sb, token, 4001);
    await configure(t.sb, token, id, configuration(t.sb, 101, { google_ads: 'all' }));
    const r = await interruptWhen(
      t.sb,
      ['recipes', 'build', id, '-w', '101', '--wait', '--verbose', ...FAST],
      new RegExp(`GET /api/v3.1/automated-recipes/${id}/ 200`),
    );
    expect(r.interrupted).toBe(true);
    expect(r.code).toBe(130);
    expect(r.stderr).toContain('stopped waiting');
    expect(r.stderr).toContain(
      `the build of recipe ${id} continues on the service; follow it with \`edp recipes poll ${id} -w 101\``,
    );
    expect(t.sb.store.state.recipes[0]!.state).toBe('extracting_data');
  });

  it('recipes deploy: exit 130 and the poll command of the recipe', async () => {
    const r = await interruptWhen(t.sb, ['-w', '101', ...DEPLOY], /6\/7 build: extracting_data/);
    expect(r.code).toBe(130);
    const id = String(t.sb.store.state.recipes[0]!.id);
    expect(r.stderr).toContain(`continues on the service; follow it with \`edp recipes poll ${id} -w 101\``);
  });

  it('recipes deploy interrupted while the configuration is sent: it may have landed, and how to see it', async () => {
    // The configuration PUT is held by a proxy; Ctrl-C comes once it has left the client.
    let arrived: () => void = () => undefined;
    const proxy = await listen((req, res, body) => {
      if (req.method === 'PUT' && req.url!.startsWith('/api/v3.1/automated-recipes/')) return arrived();
      void passOrFail(res, async () => reply(res, await forward(t.sb.url, req, body)));
    });
    try {
      const r = await interruptWhen(proxy, ['-w', '101', ...DEPLOY], (abort) => (arrived = abort));
      expect(r.code).toBe(130);
      const id = String(t.sb.store.state.recipes[0]!.id);
      expect(r.stderr).toContain(
        `workspace 101: interrupted while configuring recipe ${id}: the configuration may have landed; \`edp recipes get ${id} -w 101\` shows it`,
      );
    } finally {
      await proxy.close();
    }
  });

  it('apply interrupted: each row says what may have landed, and what was never started', async () => {
    const dir = tempDir('edp-interrupt-');
    try {
      const file = join(dir.dir, 'fleet.yaml');
      writeFileSync(
        file,
        'workspaces: [101]\nrecipes:\n  - template: 4001\n    sources:\n      - data_source: google_ads\n        accounts: [all-active]\nwebhooks:\n  - url: https://hooks.example.com/edp\n    events: [load_completed]\n',
      );
      const r = await interruptWhen(t.sb, ['apply', '-f', file, '--yes', '--json', ...FAST], /5\/7 configured/);
      expect(r.code).toBe(130);
      const rows = JSON.parse(r.stdout);
      const id = String(t.sb.store.state.recipes[0]!.id);
      expect(rows).toEqual([
        expect.objectContaining({
          resource: 'recipe',
          result: 'interrupted',
          error: { code: 'interrupted', message: 'stopped by Ctrl-C or a stop signal' },
          note: `stopped waiting; any build of recipe ${id} continues on the service; follow it with \`edp recipes poll ${id} -w 101\``,
        }),
        expect.objectContaining({
          resource: 'webhook',
          result: 'interrupted',
          note: 'interrupted before it began: nothing was sent',
        }),
      ]);
      expect(t.sb.store.state.webhook_endpoints).toEqual([]);
    } finally {
      dir.remove();
    }
  });
});
