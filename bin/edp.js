#!/usr/bin/env node
import module from 'node:module';
import { join } from 'node:path';

/** The user's cache folder for edp, as src/http/undici.ts finds it (undefined without a home). */
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
if (module.enableCompileCache && !process.env.NODE_COMPILE_CACHE) {
  try {
    const dir = cacheDir(process.env);
    if (dir) module.enableCompileCache(join(dir, 'compile-cache'));
  } catch {
    // no cache this run
  }
}

const { run } = await import('../dist/cli.js');
run();
