import { spawn, spawnSync, type ChildProcess, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseJson } from '../../src/util/json.js';
import { PASSWORD, USERNAME } from '../helpers.js';
import type { ErrorDocument } from '../../src/output/error-document.js';

/**
 * The shipped command line, run as a real process: `bin/edp.js` loading the bundle in dist/,
 * under the Node that runs the tests (process.execPath), so a suite run on Node 22 tests the
 * binary on Node 22.
 */
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
export const BIN = join(ROOT, 'bin/edp.js');

/** What a build is made from: a file here newer than the build means dist/ does not show the sources. */
const BUILD_INPUTS = ['src', 'bin', 'scripts', 'build.mjs', 'package.json', 'package-lock.json'];

/** The newest file under `path` (a file or a folder), with its time. */
function newest(path: string): { path: string; mtimeMs: number } {
  const stat = statSync(path);
  if (!stat.isDirectory()) return { path, mtimeMs: stat.mtimeMs };
  let best = { path, mtimeMs: 0 };
  for (const name of readdirSync(path)) {
    const found = newest(join(path, name));
    if (found.mtimeMs > best.mtimeMs) best = found;
  }
  return best;
}

/** Why the build in `root` cannot be tested (missing, or older than its sources), or undefined. */
export function unusableBuild(root: string): string | undefined {
  for (const file of ['dist/cli.cjs', 'dist/sandbox.js', 'dist/help.txt']) {
    if (!existsSync(join(root, file)))
      return `${file} is missing: the built-binary tests run dist/, so run \`npm run build\` first (\`npm test\` does)`;
  }
  // dist/help.txt is the build's last file.
  const built = statSync(join(root, 'dist/help.txt')).mtimeMs;
  for (const input of BUILD_INPUTS) {
    if (!existsSync(join(root, input))) continue;
    const changed = newest(join(root, input));
    if (changed.mtimeMs > built)
      return `dist/ is older than ${relative(root, changed.path)}: the built-binary tests would test an old build; run \`npm run build\` (\`npm test\` does)`;
  }
  return undefined;
}

/** What `npm pack` puts in the package, as npm lists it: each file's path and size, and the total. */
export interface Packed {
  files: Array<{ path: string; size: number }>;
  size: number;
  unpackedSize: number;
}

/**
 * The package as `npm pack` would pack it from the checkout (the build there; --ignore-scripts:
 * prepack would build again, and the file list does not depend on the scripts it strips).
 */
export function packedFiles(): Packed {
  const r = spawnSync('npm', PACK_DRY_RUN, { cwd: ROOT, encoding: 'utf8' });
  return packed(r.status, r.stdout, r.stderr);
}

/**
 * packedFiles without blocking this process for the seconds npm takes: for a file whose other
 * tests' processes talk to a sandbox this process serves.
 */
export async function packedFilesAsync(): Promise<Packed> {
  const r = await collected(spawn('npm', PACK_DRY_RUN, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] }));
  return packed(r.code, r.stdout, r.stderr);
}

const PACK_DRY_RUN = ['pack', '--dry-run', '--json', '--ignore-scripts'];

function packed(status: number | null, stdout: string, stderr: string): Packed {
  if (status !== 0) throw new Error(`npm pack --dry-run failed (exit ${status}): ${stderr}`);
  return (JSON.parse(stdout) as Packed[])[0]!;
}

let checked = false;

/** Throws a clear error when dist/ cannot be tested (see unusableBuild); call it in beforeAll. */
export function requireBuild(): void {
  if (checked) return;
  const why = unusableBuild(ROOT);
  if (why) throw new Error(why);
  checked = true;
}

export interface EdpRunOptions {
  /**
   * The child's whole environment besides PATH and HOME: nothing else is inherited, so an
   * EDP_* variable of whoever runs the tests cannot leak in. A key set to undefined is left out.
   */
  env?: Record<string, string | undefined>;
  /** written to the child's standard input, which is then closed (empty when not given) */
  stdin?: string;
  cwd?: string;
  /** another copy of the launcher to run (default: this checkout's bin/edp.js) */
  bin?: string;
}

export interface EdpRun {
  /** exit code, or null when ended by a signal */
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON (lossless: large ids stay exact) */
  json<T = any>(): T;
  /** the last line of stderr parsed as the JSON error document of `--json` */
  errorJson(): ErrorDocument;
}

/** A run's whole environment: PATH and HOME, then `env` (a key set to undefined is left out). */
export function childEnv(env: Record<string, string | undefined> = {}): Record<string, string> {
  const all: Record<string, string | undefined> = { PATH: process.env.PATH, HOME: process.env.HOME, ...env };
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(all)) if (v !== undefined) out[k] = v;
  return out;
}

/** Starts `edp argv…` and leaves it running (for `edp sandbox`, listeners); stdin stays open. */
export function startEdp(argv: string[], opts: Omit<EdpRunOptions, 'stdin'> = {}): ChildProcessWithoutNullStreams {
  requireBuild();
  return spawn(process.execPath, [opts.bin ?? BIN, ...argv], {
    env: childEnv(opts.env),
    cwd: opts.cwd ?? ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

/** What a process printed and how it ended, once it has ended (its stdin is left to the caller). */
export function collected(
  child: ChildProcess,
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** Runs `edp argv…` to its end and collects its output and exit code. */
export function runEdp(argv: string[], opts: EdpRunOptions = {}): Promise<EdpRun> {
  const child = startEdp(argv, opts);
  const ended = collected(child);
  // A child that exits before reading its input closes the pipe: not an error of the test.
  child.stdin.on('error', () => undefined);
  child.stdin.end(opts.stdin ?? '');
  return ended.then((r) => ({
    ...r,
    json: () => parseJson(r.stdout) as any,
    errorJson: () => JSON.parse(r.stderr.trim().split('\n').pop()!),
  }));
}

/**
 * The environment of a signed-in operator of the demo agency against `baseUrl`, with its own
 * config folder (one per test file keeps files parallel-safe).
 */
export function operatorEnv(
  baseUrl: string,
  configDir: string,
  extra: Record<string, string | undefined> = {},
): Record<string, string | undefined> {
  return { EDP_BASE_URL: baseUrl, EDP_CONFIG_DIR: configDir, EDP_USERNAME: USERNAME, EDP_PASSWORD: PASSWORD, ...extra };
}
