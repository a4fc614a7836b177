import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { sandbox, tempDir } from '../helpers.js';
import { operatorEnv, runEdp } from './helpers.js';
import { atTerminal, terminalUnavailable, type TerminalOptions } from './terminal.js';

// What a person sees: the built tool at a pseudo-terminal of a given size, spinners, prompts,
// tables and colour included. Every other built-binary test pipes the output.

const unavailable = terminalUnavailable();
const dir = tempDir('edp-e2e-terminal-');
let sb: Sandbox;
beforeAll(async () => {
  if (!unavailable) sb = await sandbox({ buildSeconds: 0 });
});
afterAll(async () => {
  await sb?.close();
  dir.remove();
});

const env = (extra: Record<string, string | undefined> = {}) =>
  operatorEnv(sb.url, `${dir.dir}/config`, { EDP_POLL_INTERVAL: '20ms', ...extra });
const edp = (argv: string[], opts: Partial<TerminalOptions> = {}) =>
  atTerminal(argv, { env: env(), ...opts, ...(opts.env ? { env: { ...env(), ...opts.env } } : {}) });
const piped = (argv: string[]) => runEdp(argv, { env: env() });

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

/** The widest line of a screen, in characters (the test's terminal renders one cell per character). */
const widest = (lines: string[]) => Math.max(...lines.map((l) => [...l].length));

describe.skipIf(unavailable)(`at a terminal${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
  it('a waiting command shows a spinner, then the result, and exits 0: extracts run --wait', async () => {
    const r = await edp(['-w', '101', 'extracts', 'run', '40001', '--wait']);
    expect(r.code, r.text).toBe(0);
    // ora draws its frames in place: braille spinner characters, then the final mark.
    expect(r.raw).toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/);
    expect(r.text).toMatch(/^✓ Extract 40001 completed/m);
    expect(r.text).not.toMatch(/is not a function|error:/);
  });

  it('loads run --wait', async () => {
    const load = (await piped(['-w', '101', 'loads', 'list', '--json'])).json()[0].id;
    const r = await edp(['-w', '101', 'loads', 'run', String(load), '--wait']);
    expect(r.code, r.text).toBe(0);
    expect(r.text).not.toMatch(/is not a function|error:/);
  });

  it('recipes deploy in one workspace, then build --wait and poll on the recipe it made', async () => {
    const deployed = await edp(deployArgs('102'));
    expect(deployed.code, deployed.text).toBe(0);
    expect(deployed.text).not.toMatch(/is not a function|error \(shown above\)/);
    expect(deployed.text).toMatch(/ready_to_work/);
    const id = String((await piped(['-w', '102', 'recipes', 'list', '--json'])).json()[0].recipe_id);

    const build = await edp(['-w', '102', 'recipes', 'build', id, '--wait']);
    expect(build.code, build.text).toBe(0);
    expect(build.text).toMatch(/ready_to_work/);
    const poll = await edp(['-w', '102', 'recipes', 'poll', id]);
    expect(poll.code, poll.text).toBe(0);
    expect(poll.text).toMatch(/ready_to_work/);
  });

  it('recipes deploy across a fleet ends with one row per workspace', async () => {
    const r = await edp(deployArgs('101,103'), { columns: 120 });
    expect(r.code, r.text).toBe(0);
    expect(r.text).not.toMatch(/is not a function|error \(shown above\)/);
    const rows = r.lines.filter((l) => /^\s*│?\s*(101|103)\b/.test(l));
    expect(rows.length, r.text).toBeGreaterThanOrEqual(2);
  });

  it('a deploy that fails shows its error above the row that points to it', async () => {
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

  it('recipes status --watch redraws until every build is terminal, then exits 0', async () => {
    // A recipe of its own (deploy takes the one already there, if another test made it).
    expect((await piped([...deployArgs('101'), '--no-input'])).code).toBe(0);
    const r = await edp(['-w', '101', 'recipes', 'status', '--watch']);
    expect(r.code, r.text).toBe(0);
    expect(r.text).toMatch(/ready_to_work/);
  });

  it('a confirmation: declined sends nothing (exit 11), accepted deletes', async () => {
    await piped(['-w', '103', 'recipes', 'deploy', ...deployArgs('103').slice(4), '--no-input']);
    const id = String((await piped(['-w', '103', 'recipes', 'list', '--json'])).json()[0].recipe_id);
    const declined = await edp(['-w', '103', 'recipes', 'delete', id], { keys: [{ when: /\(y\/N\)/, send: 'n\r' }] });
    expect(declined.code, declined.text).toBe(11);
    expect((await piped(['-w', '103', 'recipes', 'get', id])).code).toBe(0);
    const accepted = await edp(['-w', '103', 'recipes', 'delete', id], { keys: [{ when: /\(y\/N\)/, send: 'y\r' }] });
    expect(accepted.code, accepted.text).toBe(0);
    expect((await piped(['-w', '103', 'recipes', 'get', id])).code).toBe(5);
  });

  it('auth login asks for the user name and the password at prompts, and stores them', async () => {
    const config = tempDir('edp-e2e-login-');
    try {
      const login = await atTerminal(['auth', 'login'], {
        env: { EDP_BASE_URL: sb.url, EDP_CONFIG_DIR: config.dir },
        keys: [
          { when: /user ?name|email/i, send: 'agency@sandbox.local\r' },
          { when: /password/i, send: 'sandbox\r' },
        ],
      });
      expect(login.code, login.text).toBe(0);
      expect(login.text).not.toContain('sandbox\n'); // the password is never echoed
      const status = await runEdp(['auth', 'status', '--json'], {
        env: { EDP_BASE_URL: sb.url, EDP_CONFIG_DIR: config.dir },
      });
      expect(status.code, status.stderr).toBe(0);
      expect(status.stdout).toContain('agency@sandbox.local');
    } finally {
      config.remove();
    }
  });

  it('Ctrl-C during a wait ends the run with exit 130', async () => {
    // A build that lasts long enough to be interrupted: the sandbox's build states last 60 s here.
    const slow = await sandbox({ buildSeconds: 60 });
    try {
      const slowEnv = operatorEnv(slow.url, `${dir.dir}/config-slow`, { EDP_POLL_INTERVAL: '20ms' });
      const r = await atTerminal(deployArgs('101'), {
        env: slowEnv,
        keys: [{ when: /build/i, send: '\x03' }],
      });
      expect(r.code, r.text).toBe(130);
      // Ended by the tool, not by a library's signal handler: the build goes on, and it says so
      // (the run wrote the config first: its token, through conf).
      expect(r.text).toMatch(/continues on the service/);
    } finally {
      await slow.close();
    }
  });

  for (const columns of [40, 80, 200]) {
    it(`tables fit a window of ${columns} columns`, async () => {
      for (const argv of [
        ['-w', '101', 'accounts', 'list', '--connection', '1001', '--remote'],
        ['-w', '101', 'extracts', 'list'],
        ['workspaces', 'list'],
      ]) {
        const r = await edp(argv, { columns });
        expect(r.code, r.text).toBe(0);
        expect(widest(r.lines), `${argv.join(' ')} at ${columns} columns:\n${r.text}`).toBeLessThanOrEqual(columns);
      }
    });
  }

  it('colour at a terminal, none with NO_COLOR', async () => {
    const coloured = await edp(['-w', '101', 'extracts', 'run', '40001', '--wait']);

    expect(coloured.raw).toMatch(/\u001b\[3[0-9]m/);
    const plain = await edp(['-w', '101', 'extracts', 'run', '40001', '--wait'], { env: { NO_COLOR: '1' } });
    expect(plain.code).toBe(0);

    expect(plain.raw).not.toMatch(/\u001b\[3[0-9]m/);
  });
});
