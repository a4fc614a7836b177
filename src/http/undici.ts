import { mkdirSync, readdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';
import type AgentClass from 'undici/lib/dispatcher/agent.js';
import type undiciRequest from 'undici/lib/api/api-request.js';
import { VERSION } from '../version.js';

/** The file name of the CommonJS undici build beside the bundle (set by build.mjs; unset when run from source). */
declare const __EDP_UNDICI_CJS__: string;

export interface Undici {
  Agent: typeof AgentClass;
  request: typeof undiciRequest;
}

let loaded: Undici | undefined;
/** Compiled undici, kept to write its code cache once the first requests have run. */
let pendingCache: { script: Script; file: string } | undefined;

/**
 * undici's Agent and request API. The built command line loads them from one CommonJS file
 * compiled with a V8 code cache kept in the user's cache folder: a run then skips parsing and
 * compiling undici, which otherwise costs more than the request itself. A cache that is
 * missing, stale (another Node or edp version) or unwritable only costs that compile.
 */
export function loadUndici(): Undici {
  if (loaded) return loaded;
  if (typeof __EDP_UNDICI_CJS__ !== 'undefined') {
    const dist = dirname(fileURLToPath(import.meta.url));
    loaded = loadWithCodeCache(join(dist.endsWith('chunks') ? dirname(dist) : dist, __EDP_UNDICI_CJS__));
  } else {
    const require = createRequire(import.meta.url);
    loaded = { Agent: require('undici/lib/dispatcher/agent.js'), request: require('undici/lib/api/api-request.js') };
  }
  return loaded;
}

/**
 * Writes the code cache when this run compiled undici without one. Called after the run's
 * requests, so that the cache holds the functions a request needs, not only the top level.
 */
export function saveUndiciCodeCache(): void {
  const pending = pendingCache;
  pendingCache = undefined;
  if (!pending) return;
  try {
    const data = pending.script.createCachedData();
    mkdirSync(dirname(pending.file), { recursive: true, mode: 0o700 });
    const temp = `${pending.file}.${process.pid}.tmp`;
    writeFileSync(temp, data, { mode: 0o600 });
    try {
      renameSync(temp, pending.file);
    } catch (err) {
      unlinkSync(temp);
      throw err;
    }
    // This Node's caches of other edp versions are not used again (other Nodes keep theirs).
    const dir = dirname(pending.file);
    const kept = basename(pending.file);
    const sameNode = `-${process.version}-${process.arch}-`;
    for (const name of readdirSync(dir)) {
      if (name !== kept && name.startsWith('undici-') && name.includes(sameNode) && name.endsWith('.v8cache'))
        unlinkSync(join(dir, name));
    }
  } catch {
    // A read-only or full disk: the next run compiles again.
  }
}

function loadWithCodeCache(file: string): Undici {
  const source = readFileSync(file, 'utf8');
  const dir = cacheDir(process.env);
  const cacheFile = dir && join(dir, `undici-${VERSION}-${process.version}-${process.arch}-${source.length}.v8cache`);
  let cachedData: Buffer | undefined;
  try {
    if (cacheFile) cachedData = readFileSync(cacheFile);
  } catch {
    // no cache yet
  }
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: file,
    ...(cachedData ? { cachedData } : {}),
  });
  // V8 refuses a cache made by another V8 or for other source; it is then written anew.
  if (cacheFile && (!cachedData || script.cachedDataRejected)) pendingCache = { script, file: cacheFile };
  const module = { exports: {} as Undici };
  const wrapper = script.runInThisContext() as (e: object, r: NodeJS.Require, m: object, f: string, d: string) => void;
  wrapper(module.exports, createRequire(file), module, file, dirname(file));
  return module.exports;
}

/**
 * The user's cache folder for edp, by the launcher's rules (bin/edp.js, which puts Node's
 * compile cache there): XDG_CACHE_HOME, else ~/.cache; the platform's own on macOS and Windows;
 * undefined without a home, and then nothing is cached.
 */
function cacheDir(env: Record<string, string | undefined>): string | undefined {
  if (process.platform === 'win32') return env.LOCALAPPDATA ? join(env.LOCALAPPDATA, 'edp', 'Cache') : undefined;
  if (process.platform === 'darwin' && !env.XDG_CACHE_HOME)
    return env.HOME ? join(env.HOME, 'Library', 'Caches', 'edp') : undefined;
  const base = env.XDG_CACHE_HOME || (env.HOME && join(env.HOME, '.cache'));
  return base ? join(base, 'edp') : undefined;
}
