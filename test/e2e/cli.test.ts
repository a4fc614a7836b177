import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { BASELINE_FLAGS } from '../../src/http/baseline-wasm.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { cli, PASSWORD, sandbox, tempDir, USERNAME } from '../helpers.js';
import { runBuiltInProcess } from './built-in-process.js';
import { BIN, collected, operatorEnv, packedFilesAsync, requireBuild, ROOT, runEdp, startEdp } from './helpers.js';
import { limitConcurrentTests } from './concurrency.js';

// The built command line: help, version, errors, sign-in and the agency-level command groups,
// against one sandbox of this file. Where the process is the subject (the launcher, its code
// caches, the shipped files, standard input, `edp sandbox` and Ctrl-C) a test runs bin/edp.js;
// where only what the command line prints is, the shipped bundle runs in this process
// (runBuiltInProcess). The tests run a few at a time (their processes mostly wait), each with a
// config folder of its own.

limitConcurrentTests();

const config = tempDir('edp-e2e-cli-');
let sb: Sandbox;
beforeAll(async () => {
  requireBuild();
  sb = await sandbox();
});
afterAll(async () => {
  await sb.close();
  config.remove();
});
/** The operator's environment, with a config folder of the calling test's own. */
const operator = (extra: Record<string, string | undefined> = {}) =>
  operatorEnv(sb.url, mkdtempSync(join(config.dir, 'config-')), extra);

/**
 * Runs `node args…` to its end without blocking this process (it serves the sandbox the
 * other tests' processes are talking to).
 */
function runNode(
  args: string[],
  opts: { env?: Record<string, string | undefined>; cwd?: string } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return collected(
    spawn(process.execPath, args, {
      cwd: opts.cwd,
      env: opts.env as NodeJS.ProcessEnv | undefined,
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
}

/** `edp --help` off a terminal: one run, which two tests read. */
let helpRun: ReturnType<typeof runEdp> | undefined;
const help = () => (helpRun ??= runEdp(['--help']));

describe.concurrent('edp, built: help, version and errors', () => {
  it('--help lists every command group and the exit codes', async ({ expect }) => {
    const r = await help();
    expect(r.code).toBe(0);
    for (const group of [
      'auth',
      'token',
      'workspaces',
      'agency-recipes',
      'iframe-url',
      'datasources',
      'connections',
      'accounts',
      'links',
      'extract-templates',
      'extracts',
      'destinations',
      'tables',
      'loads',
      'recipes',
      'webhooks',
      'roles',
      'api',
      'sandbox',
      'completion',
    ]) {
      expect(r.stdout).toMatch(new RegExp(`^  ${group} `, 'm'));
    }
    expect(r.stdout).toContain('Exit codes: 0 ok');
  });

  it('--help and -h off a terminal print the text rendered at build time, which is what the CLI itself prints', async ({
    expect,
  }) => {
    const runs = Promise.all([help(), runEdp(['-h'])]);
    const inProcess = await cli(undefined, ['--help']);
    expect(inProcess.code).toBe(0);
    expect(readFileSync(join(ROOT, 'dist/help.txt'), 'utf8')).toBe(inProcess.stdout);
    for (const r of await runs) {
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(inProcess.stdout);
    }
  });

  it('keeps code caches of the CLI and undici in XDG_CACHE_HOME/edp, fills them in after a first run without requests, reuses them, replaces one V8 refuses; without a home it caches nothing', async ({
    expect,
  }) => {
    const cache = tempDir('edp-cache-');
    const dir = join(cache.dir, 'edp');
    const env = operator();
    const caches = () =>
      Object.fromEntries(
        readdirSync(dir)
          .filter((f) => f.endsWith('.v8cache'))
          .map((f) => [f, readFileSync(join(dir, f))]),
      );
    // Compared by digest: a deep comparison of the buffers, byte by byte, takes seconds.
    const digests = (files: Record<string, Buffer>) =>
      Object.fromEntries(
        Object.entries(files).map(([f, data]) => [f, createHash('sha256').update(data).digest('hex')]),
      );
    const list = () => runEdp(['workspaces', 'list', '--json'], { env: { ...env, XDG_CACHE_HOME: cache.dir } });
    // Runs that cache nothing, beside the runs that fill the cache folder (they touch none of it).
    const homeless = runEdp(['workspaces', 'list', '--json'], { env: { ...env, HOME: undefined } });
    // A cache folder that cannot be made (its parent is a file) only costs the compile.
    const notAFolder = join(cache.dir, 'file');
    writeFileSync(notAFolder, '');
    const unwritable = runEdp(['workspaces', 'list', '--json'], { env: { ...env, XDG_CACHE_HOME: notAFolder } });
    try {
      // A run without requests caches the CLI only, marked as such (first byte 0)...
      expect((await runEdp(['--version'], { env: { ...env, XDG_CACHE_HOME: cache.dir } })).code).toBe(0);
      const local = caches();
      expect(Object.keys(local)).toHaveLength(1);
      const [localCli] = Object.entries(local)[0]!;
      expect(localCli).toMatch(/^cli-/);
      expect(local[localCli]![0]).toBe(0);
      // ...which the first run that sends requests writes again, with undici's (first byte 1).
      expect((await list()).code).toBe(0);
      const first = caches();
      expect(first[localCli]!.equals(local[localCli]!)).toBe(false);
      for (const data of Object.values(first)) expect(data[0]).toBe(1);
      expect(
        Object.keys(first)
          .map((f) => f.replace(/-v\d.*$/, ''))
          .sort(),
      ).toEqual(['cli', 'undici']);
      for (const name of Object.keys(first)) expect(name).toContain(`-${process.version}-${process.arch}-`);
      // Accepted by V8 on the next run, so not written again.
      const second = await list();
      expect(second.code).toBe(0);
      expect(second.json().length).toBeGreaterThan(0);
      expect(digests(caches())).toEqual(digests(first));
      // A cache V8 refuses (here: not a cache at all) is compiled around and replaced.
      const cliCache = Object.keys(first).find((f) => f.startsWith('cli-'))!;
      writeFileSync(join(dir, cliCache), 'not a code cache');
      expect((await list()).code).toBe(0);
      expect(readFileSync(join(dir, cliCache)).equals(first[cliCache]!)).toBe(false);
      expect(readFileSync(join(dir, cliCache)).length).toBeGreaterThan(1000);
      const withoutHome = await homeless;
      expect(withoutHome.code).toBe(0);
      expect(withoutHome.json().length).toBeGreaterThan(0);
      const cannotWrite = await unwritable;
      expect(cannotWrite.stderr).toBe('');
      expect(cannotWrite.code).toBe(0);
      expect(cannotWrite.json().length).toBeGreaterThan(0);
    } finally {
      await Promise.allSettled([homeless, unwritable]);
      cache.remove();
    }
  });

  it("keeps WebAssembly at the baseline tier: --liftoff-only from the start on Node 20 and 22 (not over the user's own), a raised tier-up budget on Node 24 and 26", async ({
    expect,
  }) => {
    // A preload records each V8 flag the run sets in its log; the launcher and the CLI set none of their own.
    const dir = tempDir('edp-flags-');
    const recorder = (name: string) => {
      const log = join(dir.dir, `${name}.log`);
      const preload = join(dir.dir, `${name}.cjs`);
      writeFileSync(
        preload,
        `const v8 = require('node:v8');
const set = v8.setFlagsFromString;
v8.setFlagsFromString = (flags) => { require('node:fs').appendFileSync(${JSON.stringify(log)}, flags + '\\n'); set(flags); };
`,
      );
      const logged = () => {
        try {
          return readFileSync(log, 'utf8').trim().split('\n');
        } catch {
          return [];
        }
      };
      return { preload, logged };
    };
    const listing = recorder('list');
    const ownFlag = recorder('own');
    const plainVersion = recorder('plain');
    // Each run has a log and a cache folder of its own, so the three run at once.
    const versionEnv = (cache: string) => ({
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      XDG_CACHE_HOME: join(dir.dir, cache),
    });
    try {
      const [r, own, plain] = await Promise.all([
        runEdp(['workspaces', 'list', '--json'], {
          env: operator({ NODE_OPTIONS: `--require ${listing.preload}` }),
        }),
        // A --no-liftoff-only given to node is left as it is.
        runNode(['--no-liftoff-only', '--require', ownFlag.preload, BIN, '--version'], { env: versionEnv('own') }),
        // Without it, a run that creates no WebAssembly still starts under the flag on Node 20 and 22.
        runNode(['--require', plainVersion.preload, BIN, '--version'], { env: versionEnv('plain') }),
      ]);
      expect(r.code).toBe(0);
      expect(r.json().length).toBeGreaterThan(0);
      // Node 20 and 22: the launcher's --liftoff-only, for the whole run; Node 24 and 26: the
      // budget raised while undici creates its parser, then its default.
      const flags = BASELINE_FLAGS[Number(process.versions.node.split('.')[0])];
      expect(listing.logged()).toEqual(flags ? [flags.set, flags.reset] : ['--liftoff-only']);
      expect(own.code).toBe(0);
      expect(ownFlag.logged()).toEqual([]);
      expect(plain.code).toBe(0);
      expect(plainVersion.logged()).toEqual(flags ? [] : ['--liftoff-only']);
    } finally {
      dir.remove();
    }
  });

  it("keeps code caches of this Node's three newest builds of a file, and other Nodes' caches", async ({ expect }) => {
    const cache = tempDir('edp-cache-');
    const dir = join(cache.dir, 'edp');
    const node = `${process.version}-${process.arch}`;
    const older = [1, 2, 3, 4].map((n) => `cli-${node}-${String(n).repeat(16)}.v8cache`);
    const otherNode = `cli-v0.0.0-${process.arch}-${'5'.repeat(16)}.v8cache`;
    mkdirSync(dir, { recursive: true });
    for (const [i, f] of [...older, otherNode].entries()) {
      writeFileSync(join(dir, f), 'old');
      utimesSync(join(dir, f), 1_000_000 + i, 1_000_000 + i);
    }
    try {
      const r = await runEdp(['workspaces', 'list', '--json'], { env: { ...operator(), XDG_CACHE_HOME: cache.dir } });
      expect(r.code).toBe(0);
      const cli = readdirSync(dir).filter((f) => f.startsWith('cli-'));
      const written = cli.filter((f) => f.startsWith(`cli-${node}-`) && !older.includes(f));
      expect(written).toHaveLength(1);
      expect(cli.sort()).toEqual([older[2], older[3], otherNode, written[0]].sort());
    } finally {
      cache.remove();
    }
  });

  it('without the rendered help text, --help loads the CLI and prints the same', async ({ expect }) => {
    const copy = tempDir('edp-bin-');
    try {
      cpSync(join(ROOT, 'bin'), join(copy.dir, 'bin'), { recursive: true });
      cpSync(join(ROOT, 'dist'), join(copy.dir, 'dist'), { recursive: true });
      cpSync(join(ROOT, 'package.json'), join(copy.dir, 'package.json'));
      rmSync(join(copy.dir, 'dist/help.txt'));
      const r = await runEdp(['--help'], { bin: join(copy.dir, 'bin/edp.js') });
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(readFileSync(join(ROOT, 'dist/help.txt'), 'utf8'));
    } finally {
      copy.remove();
    }
  });

  it('--version prints the version of package.json', async ({ expect }) => {
    const r = await runBuiltInProcess(['--version']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version);
  });

  it('an unknown command is a usage error (exit 2) on stderr', async ({ expect }) => {
    const r = await runBuiltInProcess(['workspaces', 'frobnicate'], { env: operator() });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain("unknown command 'frobnicate'");
  });

  it('--json prints a service error as the JSON error document on stderr (exit 5)', async ({ expect }) => {
    const r = await runBuiltInProcess(['--json', 'workspaces', 'get', '999'], { env: operator() });
    expect(r.code).toBe(5);
    expect(r.stdout).toBe('');
    const { error } = r.errorJson();
    expect(error).toMatchObject({ status: 404, message: 'Workspace not found.' });
    expect(error.trace_id).toMatch(/^[0-9a-f]+$/);
  });
});

describe.concurrent('edp, built: auth and token', () => {
  it('logs in from stdin, prints a token with the stored credentials, logs out', async ({ expect }) => {
    const own = tempDir('edp-e2e-auth-');
    try {
      const base = { EDP_BASE_URL: sb.url, EDP_CONFIG_DIR: own.dir };
      const login = await runEdp(['auth', 'login', '--username', USERNAME, '--password-stdin'], {
        env: base,
        stdin: PASSWORD,
      });
      expect(login.code).toBe(0);
      expect(login.stderr).toContain(`as ${USERNAME}`);
      // Two readers of the stored credentials, at once.
      const [token, status] = await Promise.all([
        runEdp(['token', '-w', '102'], { env: base }),
        runEdp(['auth', 'status', '--json'], { env: base }),
      ]);
      expect(token.code).toBe(0);
      expect(sb.store.state.tokens[token.stdout.trim()]).toMatchObject({ workspace_id: 102 });
      expect(status.json()).toMatchObject({
        username: USERNAME,
        credentials_source: 'profile',
        credentials_check: 'valid',
      });
      expect((await runEdp(['auth', 'logout'], { env: base })).code).toBe(0);
      const after = await runEdp(['--json', 'workspaces', 'list'], { env: base });
      expect(after.code).toBe(3);
      expect(after.errorJson().error.code).toBe('no_credentials');
    } finally {
      own.remove();
    }
  });
});

describe.concurrent('edp, built: agency commands', () => {
  it('workspaces: create, then list it', async ({ expect }) => {
    const env = operator();
    const created = await runBuiltInProcess(['workspaces', 'create', '--title', 'Built Binary Co', '--json'], { env });
    expect(created.code).toBe(0);
    const { id } = created.json();
    const list = await runBuiltInProcess(['workspaces', 'list', '--json'], { env });
    expect(list.json().map((w: { id: number }) => w.id)).toEqual(expect.arrayContaining([101, 102, 103, id]));
  });

  it('agency-recipes list', async ({ expect }) => {
    const r = await runBuiltInProcess(['agency-recipes', 'list', '--json'], { env: operator() });
    expect(r.code).toBe(0);
    expect(r.json().length).toBeGreaterThan(0);
  });

  it('iframe-url', async ({ expect }) => {
    const r = await runBuiltInProcess(
      ['iframe-url', '-w', '101', '--type', 'datasource', '--name', 'google_ads', '--json'],
      { env: operator() },
    );
    expect(r.code).toBe(0);
    expect(r.json().url).toContain(`${sb.url}/api/v3/iframe/?code=`);
  });

  it('api: a raw paginated GET', async ({ expect }) => {
    const r = await runBuiltInProcess(['api', 'GET', '/api/v3/workspaces', '--paginate', '--json'], {
      env: operator(),
    });
    expect(r.code).toBe(0);
    expect(r.json()).toEqual(expect.arrayContaining([expect.objectContaining({ id: 101 })]));
  });

  it('completion prints a script per shell and refuses another (exit 2)', async ({ expect }) => {
    const [bash, fish, tcsh] = await Promise.all([
      runBuiltInProcess(['completion', 'bash']),
      runBuiltInProcess(['completion', 'fish']),
      runBuiltInProcess(['completion', 'tcsh']),
    ]);
    expect(bash.code).toBe(0);
    expect(bash.stdout).toContain('complete -F _edp edp');
    expect(fish.stdout).toContain("complete -c edp -f -a '(__edp_complete)'");
    expect(tcsh.code).toBe(2);
    expect(tcsh.stderr).toContain('tcsh');
  });
});

describe.concurrent('the package as shipped', () => {
  it('runs from the files package.json ships alone, without node_modules or the sources', async ({ expect }) => {
    const shipped = tempDir('edp-e2e-shipped-');
    try {
      // Exactly the files npm packs (package.json's `files`, with what it leaves out).
      for (const { path } of (await packedFilesAsync()).files) {
        mkdirSync(dirname(join(shipped.dir, path)), { recursive: true });
        cpSync(join(ROOT, path), join(shipped.dir, path));
      }
      const role = join(shipped.dir, 'role.yaml');
      writeFileSync(role, 'title: Shipped\npermissions: [WORKSPACE:VIEW]\n');
      const [created, vendor] = await Promise.all([
        runEdp(['roles', 'create', '--file', role, '--json'], {
          bin: join(shipped.dir, 'bin/edp.js'),
          cwd: shipped.dir,
          env: operatorEnv(sb.url, join(shipped.dir, 'config')),
        }),
        // The libraries only terminals use (tables, spinners, prompts) load from dist/vendor alone too.
        runNode(
          [
            '-e',
            `const v = (name) => require('./dist/vendor/' + name + '.cjs');
           const Table = v('cli-table3').default; const t = new Table({ head: ['id'] }); t.push(['101']);
           const spinner = v('ora').default({ text: 'x', isEnabled: false });
           const prompts = v('inquirer-prompts');
           process.stdout.write(JSON.stringify({ table: t.toString().includes('101'), spinner: typeof spinner.start,
             prompts: ['checkbox', 'confirm', 'input', 'password', 'search', 'select'].map((f) => typeof prompts[f]) }));`,
          ],
          { cwd: shipped.dir, env: process.env },
        ),
      ]);
      expect(created.stderr).toBe('');
      expect(created.code).toBe(0);
      expect(JSON.parse(created.stdout)).toMatchObject({
        title: 'Shipped',
        permissions: [{ layer: 'WORKSPACE', permission: 'VIEW' }],
      });
      expect(vendor.stderr).toBe('');
      expect(JSON.parse(vendor.stdout)).toEqual({
        table: true,
        spinner: 'function',
        prompts: Array(6).fill('function'),
      });
    } finally {
      shipped.remove();
    }
  });
});

describe.concurrent('edp sandbox, built', () => {
  it('starts on a free port, serves the CLI, and stops on Ctrl-C', async ({ expect }) => {
    const child = startEdp(['sandbox', '--port', '0']);
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.setEncoding('utf8').on('data', (d: string) => {
          out += d;
          const m = /^Sandbox listening on (http:\/\/\S+)$/m.exec(out);
          if (m) resolve(m[1]!);
        });
        child.on('exit', (code) => reject(new Error(`edp sandbox ended (exit ${code}) before listening: ${out}`)));
      });
      const own = tempDir('edp-e2e-sandbox-');
      try {
        const r = await runEdp(['workspaces', 'list', '--json'], { env: operatorEnv(url, own.dir) });
        expect(r.code).toBe(0);
        expect(r.json().map((w: { title: string }) => w.title)).toEqual([
          'Acme Retail',
          'Globex Media',
          'Initech Apps',
        ]);
      } finally {
        own.remove();
      }
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      child.kill('SIGINT');
      expect(await exited).toBe(130);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  });
});
