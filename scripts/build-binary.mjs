// @ts-check
// The single executable: `npm run build:binary` (node build.mjs, then this) writes
// dist/edp-<platform>-<arch> (.exe on Windows), a copy of a Node binary that carries the launcher
// and the bundle as Node's single-executable-application (SEA) blob. How it runs:
// scripts/sea-main.cjs; other platforms and signing: docs/development.md (The single executable).
//
//   node scripts/build-binary.mjs [--node PATH] [--output FILE] [--code-cache]
//
// --node: the Node binary to copy (default: the one running this), which also writes the blob: a
// blob is read only by the Node version that wrote it. Node 20.12 or later (SEA assets).
import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: { node: { type: 'string' }, output: { type: 'string' }, 'code-cache': { type: 'boolean' } },
  strict: true,
});
const node = values.node ?? process.execPath;
const exe = process.platform === 'win32' ? '.exe' : '';
const output = resolve(values.output ?? join(root, 'dist', `edp-${process.platform}-${process.arch}${exe}`));

/** The fuse Node's binary carries for SEA; postject flips it. */
const FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

/**
 * Why this Node cannot make the binary, or undefined when it can.
 * @param {string} nodeBinary
 */
function unsupported(nodeBinary) {
  const version = spawnSync(nodeBinary, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout.trim();
  const [major, minor] = version.split('.').map(Number);
  if (!version) return `${nodeBinary} does not run`;
  if (major < 20 || (major === 20 && minor < 12) || (major === 21 && minor < 7))
    return `Node ${version} has no SEA assets (20.12, 21.7 or later)`;
  if (!readFileSync(nodeBinary).includes(FUSE)) return `${nodeBinary} (Node ${version}) was built without SEA support`;
  return undefined;
}

// What the binary holds: the launcher and every file of dist/ a run may load or read (source maps
// and the ES module entry of the sandbox aside), keyed by their path in the package.
if (!existsSync(join(root, 'dist', 'cli.cjs'))) throw new Error('dist/ is not built: run `node build.mjs` first');
/** @param {string} dir */
const filesUnder = (dir) =>
  readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) =>
      relative(root, join(e.parentPath ?? e.path, e.name))
        .split('\\')
        .join('/'),
    );
const keys = ['bin/edp.js', ...filesUnder('dist').filter((f) => /\.(cjs|txt|wasm)$/.test(f) && !/^dist\/edp-/.test(f))];

// A Node that cannot make one is exit 3, with the reason (the binary's test skips, saying it).
const why = unsupported(node);
if (why) {
  process.stderr.write(`cannot build the single executable: ${why}\n`);
  process.exit(3);
}

const work = mkdtempSync(join(tmpdir(), 'edp-sea-'));
try {
  writeFileSync(join(work, 'assets.json'), JSON.stringify(keys));
  const blob = join(work, 'sea.blob');
  writeFileSync(
    join(work, 'sea-config.json'),
    JSON.stringify({
      main: join(root, 'scripts', 'sea-main.cjs'),
      output: blob,
      disableExperimentalSEAWarning: true,
      // V8's code cache of the main script: it is a few lines (the bundle is compiled with the
      // launcher's own code caches), and measured it bought nothing (docs/benchmarks.md);
      // --code-cache builds with it, to measure again.
      useCodeCache: values['code-cache'] === true,
      assets: {
        'assets.json': join(work, 'assets.json'),
        ...Object.fromEntries(keys.map((k) => [k, join(root, k)])),
      },
    }),
  );
  // Node says where it wrote the blob; only a failure's output is shown.
  const made = spawnSync(node, ['--experimental-sea-config', join(work, 'sea-config.json')], { encoding: 'utf8' });
  if (made.status !== 0) throw new Error(`${node} --experimental-sea-config failed:\n${made.stdout}${made.stderr}`);

  mkdirSync(dirname(output), { recursive: true });
  rmSync(output, { force: true });
  copyFileSync(node, output);
  chmodSync(output, 0o755);
  if (process.platform === 'darwin') execFileSync('codesign', ['--remove-signature', output]);
  const { inject } = createRequire(import.meta.url)('postject');
  // postject's ELF library warns about notes it does not know in every Node binary (harmless,
  // nodejs/postject#83): its warnings are shown only if it fails.
  /** @type {string[]} */
  const warnings = [];
  const warn = console.warn;
  console.warn = (...args) => void warnings.push(args.join(' '));
  try {
    await inject(output, 'NODE_SEA_BLOB', readFileSync(blob), {
      sentinelFuse: FUSE,
      ...(process.platform === 'darwin' ? { machoSegmentName: 'NODE_SEA' } : {}),
    });
  } catch (err) {
    process.stderr.write(warnings.map((w) => `${w}\n`).join(''));
    throw err;
  } finally {
    console.warn = warn;
  }
  // macOS runs only signed code on Apple silicon: an ad hoc signature (docs/development.md).
  if (process.platform === 'darwin') execFileSync('codesign', ['--sign', '-', output]);
} finally {
  rmSync(work, { recursive: true, force: true });
}
process.stdout.write(`${relative(process.cwd(), output) || output}\n`);
