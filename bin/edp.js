#!/usr/bin/env node
// @ts-check
// The launcher, as CommonJS (bin/package.json): a CommonJS entry starts sooner than an ES module
// one. What it does and what each part buys: docs/development.md (Start-up), docs/benchmarks.md.
'use strict';
const { mkdirSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } = require('node:fs');
const module_ = require('node:module');
const { dirname, join } = require('node:path');

// `edp --help` to a pipe (or an 80-column terminal: commander wraps help to the terminal's
// width, 80 off a terminal) prints the text the build rendered with the CLI itself
// (dist/help.txt, checked equal to the CLI's own by the built-binary tests), without loading
// the CLI. Any other case, or a missing file, takes the CLI.
/** Prints dist/help.txt for a bare `edp --help` to a pipe or an 80-column terminal; false otherwise. */
function printedHelp() {
  const args = process.argv.slice(2);
  if (
    args.length !== 1 ||
    (args[0] !== '--help' && args[0] !== '-h') ||
    (process.stdout.isTTY && process.stdout.columns !== 80)
  )
    return false;
  let text;
  try {
    text = readFileSync(join(__dirname, '..', 'dist', 'help.txt'));
  } catch {
    return false;
  }
  process.stdout.write(text);
  return true;
}

/**
 * The user's cache folder for edp (undefined without a home).
 * @param {NodeJS.ProcessEnv} env
 * @returns {string | undefined}
 */
function cacheDir(env) {
  if (process.platform === 'win32') return env.LOCALAPPDATA ? join(env.LOCALAPPDATA, 'edp', 'Cache') : undefined;
  if (process.platform === 'darwin' && !env.XDG_CACHE_HOME)
    return env.HOME ? join(env.HOME, 'Library', 'Caches', 'edp') : undefined;
  const base = env.XDG_CACHE_HOME || (env.HOME && join(env.HOME, '.cache'));
  return base ? join(base, 'edp') : undefined;
}

// undici parses responses with WebAssembly, and `--jq` runs jq compiled to it. V8 compiles it
// again with its optimizing tier on background threads once it has run a while, and the process
// waits for that work at exit. On Node 20 and 22, V8's --liftoff-only keeps it at the baseline
// tier for the whole run. It is set here, before any code is compiled, because V8 keys its code
// caches by its flags: the caches of dist/cli.cjs and dist/undici.cjs below, and Node's compile
// cache of dist/vendor on Node 22, are then read and written under the same flags on every run
// (Node's own code cache for its built-in modules, made under V8's defaults, is refused: the
// cost is in docs/benchmarks.md). Node 24 and 26 do not act on --liftoff-only at run time:
// src/http/baseline-wasm.ts raises their tier-up budget while each module is created. On the
// command line (node takes V8 flags there, not in NODE_OPTIONS), a --liftoff-only or
// --no-liftoff-only of the user's stays as given.
/** The Node majors on which the launcher sets --liftoff-only. */
const LIFTOFF_ONLY_MAJORS = [20, 22];

function start() {
  if (
    LIFTOFF_ONLY_MAJORS.includes(Number(process.versions.node.split('.')[0])) &&
    !process.execArgv.some((arg) => /^--(no-)?liftoff[-_]only\b/.test(arg))
  )
    require('node:v8').setFlagsFromString('--liftoff-only');

  // Node 22 and later keep compiled code between runs, in the user's cache folder, for what loads
  // through Node's own loaders (the libraries in dist/vendor, the sandbox). A folder that cannot be
  // written costs only the compile it would have saved; NODE_COMPILE_CACHE and
  // NODE_DISABLE_COMPILE_CACHE keep their meaning.
  // (Node 22 and later have enableCompileCache; the types are Node 20's.)
  const { enableCompileCache } = /** @type {{ enableCompileCache?: (dir: string) => unknown }} */ (module_);
  if (enableCompileCache && !process.env.NODE_COMPILE_CACHE && cache) {
    try {
      enableCompileCache(join(cache, 'compile-cache'));
    } catch {
      // no cache this run
    }
  }
  loadCommonJs(join(__dirname, '..', 'dist', 'cli.cjs'), 'cli').run({ loadCommonJs });
}

/** The user's cache folder, where code caches are kept. */
const cache = cacheDir(process.env);

/** How many builds of a file this Node keeps code caches of. */
const KEPT_BUILDS = 3;

/**
 * The files loaded this run, with what their code cache needs (written at exit).
 * @type {Array<{ script: import('node:vm').Script, cacheFile: string, name: string, writtenBy: number | undefined }>}
 */
const loadedFiles = [];

// A code cache holds what the run that wrote it compiled. The first byte of a cache file says
// whether that run sent requests (1) or not (0: `--version`, local commands): a cache of the
// second kind is written again by the first run that sends requests, once, so that the runs
// that follow find the request path compiled.
const LOCAL_RUN = 0;
const REQUEST_RUN = 1;

/**
 * Loads one of the built CommonJS files (dist/cli.cjs, dist/undici.cjs) with a V8 code cache
 * kept in the user's cache folder, named after the file, this Node and the build's digest of it:
 * a run then skips parsing and compiling the code the previous runs compiled. The cache is
 * written at exit, once the run has compiled what a command needs, when there was none, V8
 * refused it (another V8 or other flags), or it came from a run without requests and this one
 * sent some. Without a cache folder the file is compiled as usual.
 * @param {string} file
 * @param {string} name
 * @returns {any}
 */
function loadCommonJs(file, name) {
  const bytes = readFileSync(file);
  // The build's digest of the file, on its last line (build.mjs).
  const build = /edpBuild=([0-9a-f]+)\s*$/.exec(bytes.toString('latin1', Math.max(0, bytes.length - 64)));
  let cacheFile;
  let cached;
  if (cache && build) {
    cacheFile = join(cache, `${name}-${process.version}-${process.arch}-${build[1]}.v8cache`);
    try {
      cached = readFileSync(cacheFile);
    } catch {
      // none yet
    }
  }
  // The first byte says what kind of run wrote the cache; V8's data follows.
  const cachedData = cached && cached.length > 1 ? cached.subarray(1) : undefined;
  const { Script } = require('node:vm');
  const script = new Script(
    `(function (exports, require, module, __filename, __dirname) {${bytes.toString('utf8')}\n})`,
    {
      filename: file,
      ...(cachedData ? { cachedData } : {}),
    },
  );
  if (cacheFile) {
    if (loadedFiles.length === 0) process.once('exit', writeCodeCaches);
    const usable = cachedData !== undefined && !script.cachedDataRejected;
    loadedFiles.push({ script, cacheFile, name, writtenBy: usable ? cached?.[0] : undefined });
  }
  const loaded = { exports: {} };
  script.runInThisContext()(loaded.exports, module_.createRequire(file), loaded, file, dirname(file));
  return loaded.exports;
}

function writeCodeCaches() {
  if (!cache) return;
  // undici loads with the first request.
  const thisRun = loadedFiles.some((f) => f.name === 'undici') ? REQUEST_RUN : LOCAL_RUN;
  for (const { script, cacheFile, name, writtenBy } of loadedFiles) {
    if (writtenBy !== undefined && writtenBy >= thisRun) continue;
    try {
      const data = Buffer.concat([Buffer.of(thisRun), script.createCachedData()]);
      mkdirSync(cache, { recursive: true, mode: 0o700 });
      const temp = `${cacheFile}.${process.pid}.tmp`;
      writeFileSync(temp, data, { mode: 0o600 });
      try {
        renameSync(temp, cacheFile);
      } catch (err) {
        unlinkSync(temp);
        throw err;
      }
      // This Node keeps the caches of the file's three newest builds (two installed versions of
      // edp can share the folder); older ones are removed. Other Nodes keep theirs.
      const sameNode = `-${process.version}-${process.arch}-`;
      const builds = readdirSync(cache)
        .filter((f) => f.startsWith(`${name}-`) && f.includes(sameNode) && f.endsWith('.v8cache'))
        .map((f) => ({ file: join(cache, f), mtime: statSync(join(cache, f)).mtimeMs }))
        .sort((a, b) => b.mtime - a.mtime);
      for (const old of builds.slice(KEPT_BUILDS)) unlinkSync(old.file);
    } catch {
      // A read-only or full disk: the next run compiles again.
    }
  }
}

if (!printedHelp()) start();
