import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { http, sandbox, tempDir, tokenFor } from '../helpers.js';
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

/** Three endpoints in each of three workspaces: nine secrets. */
const nine = (sb: Sandbox) => `
workspaces: [101, 102, 103]
recipes:
  - template: Paid Media Performance
    sources:
      - data_source: google_ads
        accounts: [remote:${remoteOf(sb, 101, 'google_ads', 0)}]
webhooks:
  - url: https://hooks.example.com/n1
    events: [recipe_activated]
  - url: https://hooks.example.com/n2
    events: [recipe_activated]
  - url: https://hooks.example.com/n3
    events: [recipe_activated]
`;

describe.concurrent('edp, built, piped to a reader that stops early', () => {
  for (const lines of [0, 5, 15]) {
    it(`apply -f FILE --yes --secrets-file F 2>&1 | head -${lines}: never exit 0 with work half done`, async ({
      expect,
    }) => {
      const sb = await sandbox({ buildSeconds: 0 });
      try {
        const f = writeFile(`fleet-${lines}.yaml`, fleet(sb));
        const secrets = join(config.dir, `secrets-${lines}.json`);
        const r = await piped(
          ['apply', '-f', f, '--yes', '--secrets-file', secrets, '--poll-interval', '10ms'],
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

  // A pipe's buffer takes what is written whether or not its reader reads it: `head -1` reads the
  // whole buffer and prints one line. A one-time secret printed there could be lost unseen, so the
  // command refuses before sending anything, unless the secret was asked for in a program's form.
  it('webhooks create | head -1: refused before anything is sent, exit 2', async ({ expect }) => {
    const sb = await sandbox();
    try {
      const url = 'https://h.example.com/x';
      const r = await piped(
        ['-w', '101', 'webhooks', 'create', '--url', url, '--events', 'load_completed'],
        operatorEnv(sb.url, configOf('create-head')),
        '| head -1',
      );
      expect(r.code).toBe(2);
      expect(r.shown).toBe('');
      expect(endpointsOf(sb, 101).filter((e: any) => e.url === url)).toHaveLength(0);
    } finally {
      await sb.close();
    }
  });

  it("webhooks rotate-secret --yes | grep -m1 '^id': refused, and the old secret still holds", async ({ expect }) => {
    const sb = await sandbox();
    try {
      const token = await tokenFor(sb, 101);
      const made = await http(sb, 'POST', '/api/v3/webhook_endpoints/', {
        token,
        body: { url: 'https://h.example.com/r', event_types: ['load_completed'] },
      });
      const { id, secret } = made.body;
      const r = await piped(
        ['-w', '101', 'webhooks', 'rotate-secret', String(id), '--yes'],
        operatorEnv(sb.url, configOf('rotate-grep')),
        "| grep -m1 '^id'",
      );
      expect(r.code).toBe(2);
      const [endpoint] = endpointsOf(sb, 101).filter((e: any) => String(e.id) === String(id));
      expect(endpoint.secret).toBe(secret);
    } finally {
      await sb.close();
    }
  });

  it('apply -f FILE --yes | head -1, nine endpoints to create: refused after the plan, nothing changed', async ({
    expect,
  }) => {
    const sb = await sandbox({ buildSeconds: 0 });
    try {
      const f = writeFile('nine.yaml', nine(sb));
      const r = await piped(
        ['apply', '-f', f, '--yes', '--poll-interval', '10ms'],
        operatorEnv(sb.url, configOf('apply-nine')),
        '| head -1',
      );
      expect(r.code).toBe(2);
      for (const ws of [101, 102, 103]) {
        expect(endpointsOf(sb, ws)).toHaveLength(0);
        expect(recipesOf(sb, ws).filter((x: any) => x.template_id === 4001)).toHaveLength(0);
      }
    } finally {
      await sb.close();
    }
  });

  it('webhooks create > FILE: a file keeps what is written, so the secret goes there', async ({ expect }) => {
    const sb = await sandbox();
    try {
      const url = 'https://h.example.com/file';
      const out = join(config.dir, 'create-out.txt');
      const r = await piped(
        ['-w', '101', 'webhooks', 'create', '--url', url, '--events', 'load_completed'],
        operatorEnv(sb.url, configOf('create-file-out')),
        `> '${out}'`,
      );
      const [endpoint] = endpointsOf(sb, 101).filter((e: any) => e.url === url);
      expect(r.code).toBe(0);
      expect(readFileSync(out, 'utf8')).toContain(`secret\t${endpoint.secret}\n`);
    } finally {
      await sb.close();
    }
  });

  it('webhooks create --secrets-file F | head -1: the secret is in F, the endpoint on the pipe', async ({ expect }) => {
    const sb = await sandbox();
    try {
      const url = 'https://h.example.com/f';
      const file = join(config.dir, 'create-secrets.json');
      const r = await piped(
        ['-w', '101', 'webhooks', 'create', '--url', url, '--events', 'load_completed', '--secrets-file', file],
        operatorEnv(sb.url, configOf('create-file')),
        '| head -1',
      );
      const [endpoint] = endpointsOf(sb, 101).filter((e: any) => e.url === url);
      expect(r.code).toBe(0);
      expect(r.shown).toBe(`id\t${endpoint.id}\n`);
      const entries = JSON.parse(readFileSync(file, 'utf8')).endpoints;
      expect(entries).toEqual([
        { workspace_id: '101', endpoint_id: String(endpoint.id), url, secret: endpoint.secret },
      ]);
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
      const secrets = join(config.dir, 'secrets-term.json');
      const child = startEdp(['apply', '-f', f, '--yes', '--secrets-file', secrets, '--poll-interval', '10ms'], {
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
