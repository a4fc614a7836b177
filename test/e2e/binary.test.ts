import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { PASSWORD, tempDir, USERNAME } from '../helpers.js';
import { collected, requireBuild, ROOT } from './helpers.js';

// The single executable (scripts/build-binary.mjs) as a process, where no Node.js is installed:
// its PATH is a folder holding the binary alone, it runs in an empty working directory, with a
// home, config and cache folder of its own and nothing else in its environment. It is built once
// here from dist/ with the Node running the tests, or taken from EDP_BINARY (CI builds it once:
// .ci/run). A Node that cannot make one skips the file, saying why.

const work = tempDir('edp-e2e-binary-');
const exe = process.platform === 'win32' ? '.exe' : '';
const pathDir = join(work.dir, 'bin');
const binary = join(pathDir, `edp${exe}`);

/** Why the binary cannot be tested here, or undefined once it is in pathDir. */
function prepare(): string | undefined {
  mkdirSync(pathDir);
  if (process.env.EDP_BINARY) {
    copyFileSync(process.env.EDP_BINARY, binary);
    return undefined;
  }
  requireBuild();
  const built = spawnSync(process.execPath, ['scripts/build-binary.mjs', '--output', binary], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  // Exit 3: this Node cannot make a single executable (too old, or built without SEA).
  if (built.status === 3) return built.stderr.trim();
  if (built.status !== 0) throw new Error(`scripts/build-binary.mjs failed (exit ${built.status}):\n${built.stderr}`);
  return undefined;
}
const skipped = prepare();
afterAll(() => work.remove());

/** The binary's whole environment: a PATH with nothing but the binary, its own home. */
const home = join(work.dir, 'home');
const cwd = join(work.dir, 'cwd');
const env = (extra: Record<string, string> = {}): Record<string, string> => ({
  PATH: pathDir,
  HOME: home,
  EDP_CONFIG_DIR: join(home, 'config'),
  XDG_CACHE_HOME: join(home, 'cache'),
  ...extra,
});

/** Runs `edp args…` by its name on the binary's PATH, to its end. */
function edp(args: string[], opts: { env?: Record<string, string>; stdin?: string } = {}) {
  const child = spawn(`edp${exe}`, args, { cwd, env: env(opts.env), stdio: ['pipe', 'pipe', 'pipe'] });
  const ended = collected(child);
  child.stdin.on('error', () => undefined);
  child.stdin.end(opts.stdin ?? '');
  return ended;
}

describe.skipIf(skipped !== undefined)(
  `the single executable${skipped ? ` (skipped: ${skipped})` : ''}, without Node.js`,
  () => {
    beforeAll(() => {
      mkdirSync(home);
      mkdirSync(cwd);
    });

    it('is alone on its PATH, with no node there and no files of the package beside it', ({ expect }) => {
      expect(readdirSync(pathDir)).toEqual([`edp${exe}`]);
      expect(statSync(binary).isFile()).toBe(true);
      // Where the launcher believes the bundle is (scripts/sea-main.cjs): read from the binary only.
      expect(existsSync(`${binary}.bundle`)).toBe(false);
    });

    it('--version prints the package version', async ({ expect }) => {
      const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
      const r = await edp(['--version']);
      expect(r).toMatchObject({ code: 0, stdout: `${version}\n`, stderr: '' });
    });

    it('--help prints the help the build rendered; a verb its own, from the bundled CLI', async ({ expect }) => {
      const r = await edp(['--help']);
      expect(r.code).toBe(0);
      expect(r.stderr).toBe('');
      expect(r.stdout).toBe(readFileSync(join(ROOT, 'dist', 'help.txt'), 'utf8'));
      expect(r.stdout).toMatch(/^ {2}recipes /m);
      const verb = await edp(['recipes', 'deploy', '--help']);
      expect(verb.code).toBe(0);
      expect(verb.stdout).toMatch(/^Usage: edp recipes deploy /);
    });

    it('runs a sandbox on a free port, logs in, lists workspaces, filters with --jq and deploys a recipe', async ({
      expect,
    }) => {
      const sandbox = spawn(`edp${exe}`, ['sandbox', '--port', '0', '--build-seconds', '0'], {
        cwd,
        env: env(),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const ended = collected(sandbox);
      try {
        const url = await new Promise<string>((resolve, reject) => {
          let out = '';
          sandbox.stdout.on('data', (d: Buffer) => {
            out += d.toString('utf8');
            const m = /^Sandbox listening on (http:\/\/\S+)$/m.exec(out);
            if (m) resolve(m[1]!);
          });
          sandbox.on('exit', (code) => reject(new Error(`edp sandbox ended (exit ${code}) before listening: ${out}`)));
        });
        const at = { EDP_BASE_URL: url };

        const login = await edp(['auth', 'login', '--username', USERNAME, '--password-stdin'], {
          env: at,
          stdin: PASSWORD,
        });
        expect(login.code, login.stderr).toBe(0);
        expect(login.stderr).toMatch(/Logged in to http:\/\/127\.0\.0\.1:\d+ as agency@sandbox\.local/);
        expect(JSON.parse(readFileSync(join(home, 'config', 'config.json'), 'utf8'))).toHaveProperty(
          'profiles.default',
        );

        const list = await edp(['workspaces', 'list'], { env: at });
        expect(list.code, list.stderr).toBe(0);
        expect(list.stdout).toBe('101\tAcme Retail\n102\tGlobex Media\n103\tInitech Apps\n');

        // jq is WebAssembly read from the binary's assets.
        const ids = await edp(['workspaces', 'list', '--jq', '.[].id'], { env: at });
        expect(ids).toMatchObject({ code: 0, stdout: '101\n102\n103\n' });

        const deploy = await edp(
          [
            '-w',
            '101',
            'recipes',
            'deploy',
            '--template',
            '4001',
            '--data-source',
            'google_ads',
            '--accounts',
            'all-active',
          ],
          { env: at },
        );
        expect(deploy.code, deploy.stderr).toBe(0);
        expect(deploy.stdout).toMatch(/^101\t\d+\t5004\tready_to_work\t/);
        expect(deploy.stderr).toMatch(/built: ready_to_work/);

        // The launcher's code caches, as the npm-installed tool keeps them.
        expect(readdirSync(join(home, 'cache', 'edp')).filter((f) => f.endsWith('.v8cache'))).toEqual(
          expect.arrayContaining([expect.stringMatching(/^cli-/), expect.stringMatching(/^undici-/)]),
        );
      } finally {
        sandbox.kill('SIGINT');
      }
      const stopped = await ended;
      expect(stopped.code, stopped.stderr).toBe(130);
      expect(stopped.stderr).toMatch(/Ctrl-C stops the sandbox\.\n$/);
      expect(stopped.stderr).not.toMatch(/error/i);
    });
  },
);
