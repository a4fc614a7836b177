import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { sandbox, tempDir } from '../helpers.js';
import { useFiles } from '../fixtures/files.js';
import { endpointsOf, recipesOf, remoteOf } from '../fixtures/fleet.js';
import { BIN, operatorEnv, requireBuild, startEdp } from './helpers.js';
import { limitConcurrentTests } from './concurrency.js';

// The built tool in a real shell pipeline whose reader stops early, and stopped by SIGTERM.
// Each test has its own sandbox and config folder, so the tests run a few at a time.

limitConcurrentTests();

const config = tempDir('edp-e2e-closed-');
const writeFile = useFiles('edp-e2e-closed-');
beforeAll(() => requireBuild());
afterAll(() => config.remove());
/** A config folder of the test's own (the runs of one test may share it). */
const configOf = (name: string) => join(config.dir, name);

/**
 * `edp ARGV… | head -N` in bash: edp's own exit status (PIPESTATUS), and what head let through.
 * `--norc`: bash reads ~/.bashrc when its standard input is a socket, as node's pipes are, and
 * whatever that file runs (slow, or printing) is no part of the test.
 */
function piped(
  argv: string[],
  env: Record<string, string | undefined>,
  head: string,
): Promise<{ code: number; shown: string }> {
  const words = [process.execPath, BIN, ...argv].map((w) => `'${w.replace(/'/g, `'\\''`)}'`).join(' ');
  const child = spawn('bash', ['--norc', '-c', `${words} ${head}; echo "exit=\${PIPESTATUS[0]}"`], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env } as NodeJS.ProcessEnv,
  });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr.resume();
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', () => {
      const m = /exit=(\d+)\n$/.exec(out);
      if (!m) return reject(new Error(`no exit status in: ${out}`));
      resolve({ code: Number(m[1]), shown: out.slice(0, m.index) });
    });
  });
}

const fleet = (sb: Sandbox) => `
workspaces: [101, 102]
recipes:
  - template: Paid Media Performance
    sources:
      - data_source: google_ads
        accounts: [remote:${remoteOf(sb, 101, 'google_ads', 0)}]
webhooks:
  - url: https://hooks.example.com/piped
    events: [recipe_activated]
`;

describe.concurrent('edp, built, piped to a reader that stops early', () => {
  for (const lines of [0, 5, 15]) {
    it(`apply -f FILE --yes 2>&1 | head -${lines}: never exit 0 with work half done`, async ({ expect }) => {
      const sb = await sandbox({ buildSeconds: 0 });
      try {
        const f = writeFile(`fleet-${lines}.yaml`, fleet(sb));
        const r = await piped(
          ['apply', '-f', f, '--yes', '--poll-interval', '10ms'],
          operatorEnv(sb.url, configOf(`apply-${lines}`)),
          `2>&1 | head -${lines}`,
        );
        expect(r.code).toBe(141);
        const made = recipesOf(sb, 101).length > 0;
        for (const ws of [101, 102]) {
          const recipes = recipesOf(sb, ws).filter((x: any) => x.template_id === 4001);
          expect(recipes).toHaveLength(made ? 1 : 0);
          if (made) expect(recipes[0].state).toBe('ready_to_work');
          expect(endpointsOf(sb, ws)).toHaveLength(made ? 1 : 0);
        }
      } finally {
        await sb.close();
      }
    });
  }

  it('recipes deploy -w 101,102,103 2>&1 | grep -m1 "created recipe": every recipe built, exit 141', async ({
    expect,
  }) => {
    const sb = await sandbox({ buildSeconds: 0 });
    try {
      const r = await piped(
        [
          'recipes',
          'deploy',
          '-w',
          '101,102,103',
          '--template',
          '4001',
          '--data-source',
          'google_ads',
          '--accounts',
          'all-active',
          '--poll-interval',
          '10ms',
        ],
        operatorEnv(sb.url, configOf('deploy')),
        '2>&1 | grep -m1 "created recipe"',
      );
      expect(r.shown).toMatch(/created recipe/);
      expect(r.code).toBe(141);
      for (const ws of [101, 102, 103]) {
        const recipes = recipesOf(sb, ws).filter((x: any) => x.template_id === 4001);
        expect(recipes).toHaveLength(1);
        expect(recipes[0].state).toBe('ready_to_work');
      }
    } finally {
      await sb.close();
    }
  });

  it('webhooks create | head -0: the secret could not be shown, so the run fails with the way to a new one', async ({
    expect,
  }) => {
    const sb = await sandbox();
    try {
      const closed = await piped(
        ['webhooks', 'create', '-w', '101', '--url', 'https://hooks.example.com/h1', '--events', 'load_completed'],
        operatorEnv(sb.url, configOf('webhook')),
        '2>&1 | head -0',
      );
      expect(closed.code).toBe(141);
      expect(endpointsOf(sb, 101).filter((e: any) => e.url === 'https://hooks.example.com/h1')).toHaveLength(1);
    } finally {
      await sb.close();
    }
  });

  it("a refused password's exit code survives `2>&1 | head -1`, every time", async ({ expect }) => {
    const sb = await sandbox();
    try {
      // Five runs, at once: head may be gone before or after the tool writes its next line.
      const runs = await Promise.all(
        Array.from({ length: 5 }, () =>
          piped(
            ['workspaces', 'list'],
            operatorEnv(sb.url, configOf('refused'), { EDP_PASSWORD: 'wrong' }),
            '2>&1 | head -1',
          ),
        ),
      );
      for (const r of runs) {
        expect(r.code).toBe(3);
        expect(r.shown).toMatch(/^error: /);
      }
    } finally {
      await sb.close();
    }
  });
});

describe.concurrent('edp, built, stopped by SIGTERM', () => {
  it('apply stops at the same safe point as Ctrl-C, prints its rows and exits 143', async ({ expect }) => {
    const sb = await sandbox({ buildSeconds: 600 });
    try {
      const f = writeFile('fleet-term.yaml', fleet(sb));
      const child = startEdp(['apply', '-f', f, '--yes', '--poll-interval', '10ms'], {
        env: operatorEnv(sb.url, configOf('sigterm')),
      });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
      const building = new Promise<void>((resolve) =>
        child.stderr.setEncoding('utf8').on('data', (d: string) => {
          stderr += d;
          if (/5\/7 configured/.test(stderr)) resolve();
        }),
      );
      const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
      await building;
      child.kill('SIGTERM');
      expect(await exited).toBe(143);
      // The rows say what landed: the recipes exist and their builds go on at the service.
      expect(stdout).toMatch(/recipe/);
      expect(stdout).toMatch(/interrupted/);
    } finally {
      await sb.close();
    }
  });
});
