// @ts-check
// npm's `prepare`: builds dist/ when it is missing or older than what it is built from. npm runs
// it after `npm install` and `npm ci` in a checkout, and when it installs edp from a git URL
// (twice there: once in its clone, once before packing it), so a build that is current is not
// made again. `npm pack` and `npm publish` build unconditionally (`prepack`).
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  statSync,
  unlinkSync,
} from 'node:fs';
import { join } from 'node:path';

/** What a build is made from: the same list the built-binary tests check dist/ against. */
const BUILD_INPUTS = ['src', 'bin', 'scripts', 'build.mjs', 'package.json', 'package-lock.json'];

/**
 * The time of the newest file under `path` (a file or a folder).
 * @param {string} path
 * @returns {number}
 */
function newest(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))));
}

/** Why dist/ must be built, or undefined when it is current. */
function staleness() {
  // dist/help.txt is the build's last file.
  if (!existsSync('dist/help.txt')) return 'dist/ is missing';
  const built = statSync('dist/help.txt').mtimeMs;
  const changed = BUILD_INPUTS.find((input) => existsSync(input) && newest(input) > built);
  return changed && `dist/ is older than ${changed}`;
}

/**
 * npm run under this Node (npm_execpath: the npm that runs this script; `npm` on PATH otherwise).
 * @param {string[]} args
 * @param {NodeJS.ProcessEnv} env
 */
function npm(args, env) {
  const cli = process.env.npm_execpath;
  const run = cli
    ? spawnSync(process.execPath, [cli, ...args], { stdio: 'inherit', env })
    : spawnSync('npm', args, { stdio: 'inherit', env, shell: process.platform === 'win32' });
  if (run.status !== 0) process.exit(run.status ?? 1);
}

const why = staleness();
if (why === undefined) {
  console.log('dist/ is current: not built again');
} else {
  // A global install from a git URL (`npm install -g git+https://…`) prepares the clone with an
  // `npm install` that inherits the global install's settings: it installs none of the
  // dependencies the build needs into the clone. They are then installed here, from the lockfile
  // (without install scripts: the build needs none), with those settings taken away.
  const env = Object.fromEntries(
    Object.entries(process.env).filter(
      ([k]) => !/^npm_config_(global|prefix|global_prefix|globalconfig|location|allow_scripts)$/i.test(k),
    ),
  );
  if (!existsSync('node_modules/esbuild/package.json') || !existsSync('node_modules/typescript/package.json')) {
    console.log('the build tools are not installed: installing the locked dependencies');
    npm(['ci', '--ignore-scripts', '--include=dev', '--no-audit', '--no-fund'], env);
  }
  console.log(`${why}: building`);
  npm(['run', 'build'], env);
  // That same `npm install`, being global, also links the clone into the global folder as edp,
  // where the install from the git URL then unpacks the package: through the link, into the
  // clone npm deletes afterwards. The link is made the folder it replaced, where the package lands.
  if (process.env.npm_config_global === 'true' && process.env.npm_config_prefix) {
    const globalDir = join(process.env.npm_config_prefix, process.platform === 'win32' ? '' : 'lib', 'node_modules');
    const installed = join(globalDir, JSON.parse(readFileSync('package.json', 'utf8')).name);
    if (
      lstatSync(installed, { throwIfNoEntry: false })?.isSymbolicLink() &&
      realpathSync(installed) === realpathSync('.')
    ) {
      unlinkSync(installed);
      mkdirSync(installed);
    }
  }
}
