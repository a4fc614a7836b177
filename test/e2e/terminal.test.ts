import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it, type TestContext } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import type { SandboxOptions } from '../../src/sandbox/options.js';
import { sandbox, tempDir } from '../helpers.js';
import { operatorEnv, runEdp } from './helpers.js';
import { atTerminal, terminalUnavailable, type TerminalOptions } from './terminal.js';
import { limitConcurrentTests } from './concurrency.js';

// What a person sees: the built tool at a pseudo-terminal of a given size, spinners, prompts,
// tables and colour included. Every other built-binary test pipes the output. The tests run a
// few at a time (their processes mostly wait), each with a config folder of its own; those that
// change the agency with a sandbox of their own too.

limitConcurrentTests();

const unavailable = terminalUnavailable();
const dir = tempDir('edp-e2e-terminal-');
/** The sandbox of the tests that change nothing in the agency. */
let shared: Sandbox;
beforeAll(async () => {
  if (!unavailable) shared = await sandbox({ buildSeconds: 0 });
});
afterAll(async () => {
  await shared?.close();
  dir.remove();
});

/**
 * The operator of `sb` (a sandbox of the test's own unless given: `sandboxOpts` are its
 * options) with a config folder of the test's own: `edp` runs the tool at a terminal, `piped`
 * with its output piped.
 */
async function operator(t: TestContext, use: { sb?: Sandbox; sandboxOpts?: Partial<SandboxOptions> } = {}) {
  let sb = use.sb;
  if (!sb) {
    const own = await sandbox({ buildSeconds: 0, ...use.sandboxOpts });
    t.onTestFinished(() => own.close());
    sb = own;
  }
  const env = operatorEnv(sb.url, mkdtempSync(join(dir.dir, 'config-')), { EDP_POLL_INTERVAL: '20ms' });
  return {
    sb,
    edp: (argv: string[], opts: Partial<TerminalOptions> = {}) =>
      atTerminal(argv, { ...opts, env: { ...env, ...opts.env } }),
    piped: (argv: string[]) => runEdp(argv, { env }),
  };
}

/** The template every deploy here uses, and the spec of a deploy in the given workspaces. */
const deployArgs = (workspaces: string) => [
  'recipes',
  'deploy',
  '-w',
  workspaces,
  '--template',
  'Paid Media Performance',
  '--data-source',
  'google_ads',
  '--accounts',
  'all-active',
];

/** The recipes of a workspace a deploy made (the sandbox starts with none). */
const recipesOf = (sb: Sandbox, ws: number) =>
  sb.store.state.recipes.filter((r) => r.workspace_id === ws && !r.intermediate);

/** The widest line of a screen, in characters (the test's terminal renders one cell per character). */
const widest = (lines: string[]) => Math.max(...lines.map((l) => [...l].length));

describe.skipIf(unavailable).concurrent(`at a terminal${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
  it('a waiting command shows a spinner, then the result, in colour, and exits 0; none with NO_COLOR: extracts run --wait', async (t) => {
    const { expect } = t;
    const { edp } = await operator(t);
    const r = await edp(['-w', '101', 'extracts', 'run', '40001', '--wait']);
    expect(r.code, r.text).toBe(0);
    // ora draws its frames in place: braille spinner characters, then the final mark.
    expect(r.raw).toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/);
    expect(r.text).toMatch(/^✓ Extract 40001 completed/m);
    expect(r.text).not.toMatch(/is not a function|error:/);
    expect(r.raw).toMatch(/\u001b\[3[0-9]m/);

    const plain = await edp(['-w', '101', 'extracts', 'run', '40001', '--wait'], { env: { NO_COLOR: '1' } });
    expect(plain.code, plain.text).toBe(0);
    expect(plain.raw).not.toMatch(/\u001b\[3[0-9]m/);
  });

  it('loads run --wait', async (t) => {
    const { expect } = t;
    const { sb, edp } = await operator(t);
    const load = sb.store.state.loads.find((l) => l.workspace_id === 101)!.id;
    const r = await edp(['-w', '101', 'loads', 'run', String(load), '--wait']);
    expect(r.code, r.text).toBe(0);
    expect(r.text).not.toMatch(/is not a function|error:/);
  });

  it('recipes deploy in one workspace, then build --wait, poll and status --watch on the recipe it made', async (t) => {
    const { expect } = t;
    const { sb, edp } = await operator(t);
    const deployed = await edp(deployArgs('102'));
    expect(deployed.code, deployed.text).toBe(0);
    expect(deployed.text).not.toMatch(/is not a function|error \(shown above\)/);
    expect(deployed.text).toMatch(/ready_to_work/);
    const made = recipesOf(sb, 102);
    expect(made).toHaveLength(1);
    const id = made[0]!.id;

    const build = await edp(['-w', '102', 'recipes', 'build', id, '--wait']);
    expect(build.code, build.text).toBe(0);
    expect(build.text).toMatch(/ready_to_work/);
    const [poll, watch] = await Promise.all([
      edp(['-w', '102', 'recipes', 'poll', id]),
      // redraws until every build is terminal, then exits 0
      edp(['-w', '102', 'recipes', 'status', '--watch']),
    ]);
    expect(poll.code, poll.text).toBe(0);
    expect(poll.text).toMatch(/ready_to_work/);
    expect(watch.code, watch.text).toBe(0);
    expect(watch.text).toMatch(/ready_to_work/);
  });

  it('recipes deploy across a fleet ends with one row per workspace', async (t) => {
    const { expect } = t;
    const { edp } = await operator(t);
    const r = await edp(deployArgs('101,103'), { columns: 120 });
    expect(r.code, r.text).toBe(0);
    expect(r.text).not.toMatch(/is not a function|error \(shown above\)/);
    const rows = r.lines.filter((l) => /^\s*│?\s*(101|103)\b/.test(l));
    expect(rows.length, r.text).toBeGreaterThanOrEqual(2);
  });

  it('a deploy that fails shows its error above the row that points to it', async (t) => {
    const { expect } = t;
    // The template is refused before anything is made: the shared sandbox is left as it was.
    const { edp } = await operator(t, { sb: shared });
    const r = await edp([
      'recipes',
      'deploy',
      '-w',
      '101',
      '--template',
      'Attribution Model (draft)',
      '--data-source',
      'google_ads',
      '--accounts',
      'all-active',
    ]);
    expect(r.code, r.text).toBe(6);
    const row = r.text.indexOf('error (shown above)');
    expect(row, r.text).toBeGreaterThan(0);
    expect(r.text.slice(0, row)).toMatch(/template_not_deployable/);
    expect(r.text).not.toMatch(/is not a function/);
  });

  it('a confirmation: declined sends nothing (exit 11), accepted deletes', async (t) => {
    const { expect } = t;
    const { sb, edp, piped } = await operator(t);
    expect((await piped([...deployArgs('103'), '--no-input'])).code).toBe(0);
    const id = recipesOf(sb, 103)[0]!.id;
    const exists = () => sb.store.state.recipes.some((r) => r.id === id);
    const declined = await edp(['-w', '103', 'recipes', 'delete', id], { keys: [{ when: /\(y\/N\)/, send: 'n\r' }] });
    expect(declined.code, declined.text).toBe(11);
    expect(exists()).toBe(true);
    const accepted = await edp(['-w', '103', 'recipes', 'delete', id], { keys: [{ when: /\(y\/N\)/, send: 'y\r' }] });
    expect(accepted.code, accepted.text).toBe(0);
    expect(exists()).toBe(false);
  });

  it('auth login asks for the user name and the password at prompts, and stores them', async ({ expect }) => {
    const config = tempDir('edp-e2e-login-');
    try {
      const login = await atTerminal(['auth', 'login'], {
        env: { EDP_BASE_URL: shared.url, EDP_CONFIG_DIR: config.dir },
        keys: [
          { when: /user ?name|email/i, send: 'agency@sandbox.local\r' },
          { when: /password/i, send: 'sandbox\r' },
        ],
      });
      expect(login.code, login.text).toBe(0);
      expect(login.text).not.toContain('sandbox\n'); // the password is never echoed
      const status = await runEdp(['auth', 'status', '--json'], {
        env: { EDP_BASE_URL: shared.url, EDP_CONFIG_DIR: config.dir },
      });
      expect(status.code, status.stderr).toBe(0);
      expect(status.stdout).toContain('agency@sandbox.local');
    } finally {
      config.remove();
    }
  });

  it('Ctrl-C during a wait ends the run with exit 130', async (t) => {
    const { expect } = t;
    // A build that lasts long enough to be interrupted: the sandbox's build states last 60 s here.
    const { edp } = await operator(t, { sandboxOpts: { buildSeconds: 60 } });
    const r = await edp(deployArgs('101'), { keys: [{ when: /build/i, send: '\x03' }] });
    expect(r.code, r.text).toBe(130);
    // Ended by the tool, not by a library's signal handler: the build goes on, and it says so
    // (the run wrote the config first: its token, through conf).
    expect(r.text).toMatch(/continues on the service/);
  });

  for (const columns of [40, 80, 200]) {
    it(`tables fit a window of ${columns} columns`, async (t) => {
      const { expect } = t;
      const { edp } = await operator(t, { sb: shared });
      const commands = [
        ['-w', '101', 'accounts', 'list', '--connection', '1001', '--remote'],
        ['-w', '101', 'extracts', 'list'],
        ['workspaces', 'list'],
      ];
      const runs = await Promise.all(commands.map((argv) => edp(argv, { columns })));
      for (const [i, r] of runs.entries()) {
        expect(r.code, r.text).toBe(0);
        expect(widest(r.lines), `${commands[i]!.join(' ')} at ${columns} columns:\n${r.text}`).toBeLessThanOrEqual(
          columns,
        );
      }
    });
  }
});
