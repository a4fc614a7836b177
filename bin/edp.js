#!/usr/bin/env node
// The launcher, as CommonJS (bin/package.json): a CommonJS entry starts ~8 ms sooner than an
// ES module one, which is what `edp --help` costs on top of Node when it needs nothing else.
'use strict';
const { readFileSync } = require('node:fs');
const module_ = require('node:module');
const { join } = require('node:path');

// `edp --help` to a pipe (or an 80-column terminal: commander wraps help to the terminal's
// width, 80 off a terminal) prints the text the build rendered with the CLI itself
// (dist/help.txt, checked equal to the CLI's own by the built-binary tests), without loading
// the CLI. Any other case, or a missing file, takes the CLI.
const args = process.argv.slice(2);
if (
  args.length === 1 &&
  (args[0] === '--help' || args[0] === '-h') &&
  (!process.stdout.isTTY || process.stdout.columns === 80)
) {
  let text;
  try {
    text = readFileSync(join(__dirname, '..', 'dist', 'help.txt'));
  } catch {
    text = undefined;
  }
  if (text !== undefined) {
    process.stdout.write(text);
    return;
  }
}

/** The user's cache folder for edp (undefined without a home); src/http/undici.ts follows the same rules. */
function cacheDir(env) {
  if (process.platform === 'win32') return env.LOCALAPPDATA ? join(env.LOCALAPPDATA, 'edp', 'Cache') : undefined;
  if (process.platform === 'darwin' && !env.XDG_CACHE_HOME)
    return env.HOME ? join(env.HOME, 'Library', 'Caches', 'edp') : undefined;
  const base = env.XDG_CACHE_HOME || (env.HOME && join(env.HOME, '.cache'));
  return base ? join(base, 'edp') : undefined;
}

// Node 22 and later keep compiled code between runs (not on 20, where the API client's undici
// carries its own code cache), in the user's cache folder. It is set up before anything of
// edp is compiled. A folder that cannot be written, or a stale cache, costs only the compile
// it would have saved; NODE_COMPILE_CACHE and NODE_DISABLE_COMPILE_CACHE keep their meaning.
if (module_.enableCompileCache && !process.env.NODE_COMPILE_CACHE) {
  try {
    const dir = cacheDir(process.env);
    if (dir) module_.enableCompileCache(join(dir, 'compile-cache'));
  } catch {
    // no cache this run
  }
}

import('../dist/cli.js').then(({ run }) => run());
