import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASELINE_FLAGS } from '../../src/http/baseline-wasm.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { cli, PASSWORD, sandbox, tempDir, USERNAME } from '../helpers.js';
import { BIN, operatorEnv, requireBuild, ROOT, runEdp, startEdp } from './helpers.js';

// The built command line as a process: help, version, errors, sign-in and the agency-level
// command groups, against one sandbox of this file.

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
const env = () => operatorEnv(sb.url, config.dir);

describe('edp, built: help, version and errors', () => {
  it('--help lists every command group and the exit codes', async () => {
    const r = await runEdp(['--help']);
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

  it('--help and -h off a terminal print the text rendered at build time, which is what the CLI itself prints', async () => {
    const inProcess = await cli(undefined, ['--help']);
    expect(inProcess.code).toBe(0);
    expect(readFileSync(join(ROOT, 'dist/help.txt'), 'utf8')).toBe(inProcess.stdout);
    for (const flag of ['--help', '-h']) {
      const r = await runEdp([flag]);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(inProcess.stdout);
    }
  });

  it('keeps code caches of the CLI and undici in XDG_CACHE_HOME/edp, fills them in after a first run without requests, reuses them, replaces one V8 refuses; without a home it caches nothing', async () => {
    const cache = tempDir('edp-cache-');
    const dir = join(cache.dir, 'edp');
    const caches = () =>
      Object.fromEntries(
        readdirSync(dir)
          .filter((f) => f.endsWith('.v8cache'))
          .map((f) => [f, readFileSync(join(dir, f))]),
      );
    const list = () => runEdp(['workspaces', 'list', '--json'], { env: { ...env(), XDG_CACHE_HOME: cache.dir } });
    try {
      // A run without requests caches the CLI only, marked as such (first byte 0)...
      expect((await runEdp(['--version'], { env: { ...env(), XDG_CACHE_HOME: cache.dir } })).code).toBe(0);
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
      expect(caches()).toEqual(first);
      // A cache V8 refuses (here: not a cache at all) is compiled around and replaced.
      const cliCache = Object.keys(first).find((f) => f.startsWith('cli-'))!;
      writeFileSync(join(dir, cliCache), 'not a code cache');
      expect((await list()).code).toBe(0);
      expect(readFileSync(join(dir, cliCache)).equals(first[cliCache]!)).toBe(false);
      expect(readFileSync(join(dir, cliCache)).length).toBeGreaterThan(1000);
      const homeless = await runEdp(['workspaces', 'list', '--json'], { env: { ...env(), HOME: undefined } });
      expect(homeless.code).toBe(0);
      expect(homeless.json().length).toBeGreaterThan(0);
      // A cache folder that cannot be made (its parent is a file) only costs the compile.
      const notAFolder = join(cache.dir, 'file');
      writeFileSync(notAFolder, '');
      const unwritable = await runEdp(['workspaces', 'list', '--json'], {
        env: { ...env(), XDG_CACHE_HOME: notAFolder },
      });
      expect(unwritable.stderr).toBe('');
      expect(unwritable.code).toBe(0);
      expect(unwritable.json().length).toBeGreaterThan(0);
    } finally {
      cache.remove();
    }
  });

  it("keeps WebAssembly at the baseline tier: --liftoff-only from the start on Node 20 and 22 (not over the user's own), a raised tier-up budget on Node 24 and 26", async () => {
    // A preload records each V8 flag the run sets; the launcher and the CLI set none of their own.
    const dir = tempDir('edp-flags-');
    const log = join(dir.dir, 'flags.log');
    const preload = join(dir.dir, 'record-flags.cjs');
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
    try {
      const r = await runEdp(['workspaces', 'list', '--json'], {
        env: { ...env(), NODE_OPTIONS: `--require ${preload}` },
      });
      expect(r.code).toBe(0);
      expect(r.json().length).toBeGreaterThan(0);
      // Node 20 and 22: the launcher's --liftoff-only, for the whole run; Node 24 and 26: the
      // budget raised while undici creates its parser, then its default.
      const flags = BASELINE_FLAGS[Number(process.versions.node.split('.')[0])];
      expect(logged()).toEqual(flags ? [flags.set, flags.reset] : ['--liftoff-only']);
      // A --no-liftoff-only given to node is left as it is.
      rmSync(log, { force: true });
      const own = spawnSync(process.execPath, ['--no-liftoff-only', '--require', preload, BIN, '--version'], {
        encoding: 'utf8',
        env: { PATH: process.env.PATH, HOME: process.env.HOME, XDG_CACHE_HOME: dir.dir },
      });
      expect(own.status).toBe(0);
      expect(logged()).toEqual([]);
      // Without it, a run that creates no WebAssembly still starts under the flag on Node 20 and 22.
      const plain = spawnSync(process.execPath, ['--require', preload, BIN, '--version'], {
        encoding: 'utf8',
        env: { PATH: process.env.PATH, HOME: process.env.HOME, XDG_CACHE_HOME: dir.dir },
      });
      expect(plain.status).toBe(0);
      expect(logged()).toEqual(flags ? [] : ['--liftoff-only']);
    } finally {
      dir.remove();
    }
  });

  it("keeps code caches of this Node's three newest builds of a file, and other Nodes' caches", async () => {
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
      const r = await runEdp(['workspaces', 'list', '--json'], { env: { ...env(), XDG_CACHE_HOME: cache.dir } });
      expect(r.code).toBe(0);
      const cli = readdirSync(dir).filter((f) => f.startsWith('cli-'));
      const written = cli.filter((f) => f.startsWith(`cli-${node}-`) && !older.includes(f));
      expect(written).toHaveLength(1);
      expect(cli.sort()).toEqual([older[2], older[3], otherNode, written[0]].sort());
    } finally {
      cache.remove();
    }
  });

  it('without the rendered help text, --help loads the CLI and prints the same', async () => {
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

  it('--version prints the version of package.json', async () => {
    const r = await runEdp(['--version']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version);
  });

  it('an unknown command is a usage error (exit 2) on stderr', async () => {
    const r = await runEdp(['workspaces', 'frobnicate'], { env: env() });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain("unknown command 'frobnicate'");
  });

  it('--json prints a service error as the JSON error document on stderr (exit 5)', async () => {
    const r = await runEdp(['--json', 'workspaces', 'get', '999'], { env: env() });
    expect(r.code).toBe(5);
    expect(r.stdout).toBe('');
    const { error } = r.errorJson();
    expect(error).toMatchObject({ status: 404, message: 'Workspace not found.' });
    expect(error.trace_id).toMatch(/^[0-9a-f]+$/);
  });
});

describe('edp, built: auth and token', () => {
  it('logs in from stdin, prints a token with the stored credentials, logs out', async () => {
    const own = tempDir('edp-e2e-auth-');
    try {
      const base = { EDP_BASE_URL: sb.url, EDP_CONFIG_DIR: own.dir };
      const login = await runEdp(['auth', 'login', '--username', USERNAME, '--password-stdin'], {
        env: base,
        stdin: PASSWORD,
      });
      expect(login.code).toBe(0);
      expect(login.stderr).toContain(`as ${USERNAME}`);
      const token = await runEdp(['token', '-w', '102'], { env: base });
      expect(token.code).toBe(0);
      expect(sb.store.state.tokens[token.stdout.trim()]).toMatchObject({ workspace_id: 102 });
      const status = await runEdp(['auth', 'status', '--json'], { env: base });
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

describe('edp, built: agency commands', () => {
  it('workspaces: create, then list it', async () => {
    const created = await runEdp(['workspaces', 'create', '--title', 'Built Binary Co', '--json'], { env: env() });
    expect(created.code).toBe(0);
    const { id } = created.json();
    const list = await runEdp(['workspaces', 'list', '--json'], { env: env() });
    expect(list.json().map((w: { id: number }) => w.id)).toEqual(expect.arrayContaining([101, 102, 103, id]));
  });

  it('agency-recipes list', async () => {
    const r = await runEdp(['agency-recipes', 'list', '--json'], { env: env() });
    expect(r.code).toBe(0);
    expect(r.json().length).toBeGreaterThan(0);
  });

  it('iframe-url', async () => {
    const r = await runEdp(['iframe-url', '-w', '101', '--type', 'datasource', '--name', 'google_ads', '--json'], {
      env: env(),
    });
    expect(r.code).toBe(0);
    expect(r.json().url).toContain(`${sb.url}/api/v3/iframe/?code=`);
  });

  it('api: a raw paginated GET', async () => {
    const r = await runEdp(['api', 'GET', '/api/v3/workspaces', '--paginate', '--json'], { env: env() });
    expect(r.code).toBe(0);
    expect(r.json()).toEqual(expect.arrayContaining([expect.objectContaining({ id: 101 })]));
  });

  it('completion prints a script per shell and refuses another (exit 2)', async () => {
    const [bash, fish, tcsh] = await Promise.all([
      runEdp(['completion', 'bash']),
      runEdp(['completion', 'fish']),
      runEdp(['completion', 'tcsh']),
    ]);
    expect(bash.code).toBe(0);
    expect(bash.stdout).toContain('complete -F _edp edp');
    expect(fish.stdout).toContain("complete -c edp -f -a '(__edp_complete)'");
    expect(tcsh.code).toBe(2);
    expect(tcsh.stderr).toContain('tcsh');
  });
});

describe('the package as shipped', () => {
  it('runs from the files package.json ships alone, without node_modules or the sources', async () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { files: string[] };
    const shipped = tempDir('edp-e2e-shipped-');
    try {
      for (const entry of [...pkg.files, 'package.json'])
        cpSync(join(ROOT, entry), join(shipped.dir, entry), { recursive: true });
      const role = join(shipped.dir, 'role.yaml');
      writeFileSync(role, 'title: Shipped\npermissions: [WORKSPACE:VIEW]\n');
      const child = spawn(
        process.execPath,
        [join(shipped.dir, 'bin/edp.js'), 'roles', 'create', '--file', role, '--json'],
        {
          cwd: shipped.dir,
          env: {
            PATH: process.env.PATH,
            HOME: process.env.HOME,
            ...operatorEnv(sb.url, join(shipped.dir, 'config')),
          } as NodeJS.ProcessEnv,
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let out = '';
      let err = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (err += d));
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(err).toBe('');
      expect(code).toBe(0);
      expect(JSON.parse(out)).toMatchObject({
        title: 'Shipped',
        permissions: [{ layer: 'WORKSPACE', permission: 'VIEW' }],
      });
      // The libraries only terminals use (tables, spinners, prompts) load from dist/vendor alone too.
      const vendor = spawnSync(
        process.execPath,
        [
          '-e',
          `const v = (name) => require('./dist/vendor/' + name + '.cjs');
           const Table = v('cli-table3').default; const t = new Table({ head: ['id'] }); t.push(['101']);
           const spinner = v('ora').default({ text: 'x', isEnabled: false });
           const prompts = v('inquirer-prompts');
           process.stdout.write(JSON.stringify({ table: t.toString().includes('101'), spinner: typeof spinner.start,
             prompts: ['checkbox', 'confirm', 'input', 'password', 'search', 'select'].map((f) => typeof prompts[f]) }));`,
        ],
        { cwd: shipped.dir, encoding: 'utf8' },
      );
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

describe('edp sandbox, built', () => {
  it('starts on a free port, serves the CLI, and stops on Ctrl-C', async () => {
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
