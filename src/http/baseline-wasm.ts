import { setFlagsFromString } from 'node:v8';

/**
 * undici parses responses with WebAssembly (llhttp), and `--jq` runs jq compiled to it. V8
 * compiles WebAssembly with its baseline compiler and, once a function has run a while, again
 * with its optimizing one on background threads: a process waits for that work at exit (~85 ms
 * on Node 20 after one request, ~55 ms on Node 22 and 24 after two, more than the requests
 * took), and a long run (paging through 100,000 items) peaks ~30 MB higher. For what one
 * command runs, the baseline code is fast enough. The build has undici create its parser
 * through `withBaselineWasm` (build.mjs), and `--jq` loads jq through it (output/jq.ts).
 *
 * V8 keys code caches by its flags, those of the CLI (bin/edp.js) and Node's own for its
 * built-in modules: a flag off its default makes V8 refuse them (Node's networking modules then
 * load ~9 ms slower, measured), so each Node gets the flag for as short a time as holds:
 * - Node 20: `--liftoff-only` from the first module on, for the rest of the run: set only while
 *   a module is created it does not hold, V8 11.3 decides tier-up as the code runs. The
 *   launcher sets the defaults back (the flag turns two others off) while it loads a file with
 *   a code cache, and before it writes the caches at exit (`HeldFlags`).
 * - Node 22: the launcher sets `--liftoff-only` before anything is compiled (bin/edp.js). Node's
 *   compile cache there, for the files of dist/vendor, checks the flags of the moment a file
 *   loads, which would differ for the files loaded before and after the first request.
 * - Node 24 and 26 do not act on `--liftoff-only` at run time. Each instance takes its tier-up
 *   budget when it is created: raised then, and set back right after, no command's few requests
 *   use it up (a run of many thousands may, and then tiers up as it always did on this Node).
 *   Without it, a Node 26 run that issues a token and reads a list waited ~25 ms at exit.
 * On a major not listed (a newer one: V8 renames and drops flags, and an unknown one is an
 * error printed on stderr), or when the user gave node the flag, the module is created as it
 * would be: correct, and a few requests may cost a wait at exit; `bench/startup.mjs` says so
 * when it measures such a Node, which is the time to measure it and add its line here.
 *
 * An earlier version also compiled undici's small parser whole as it was created (V8 compiles
 * each function at its first call): it bought ~1.9 ms on Node 20 and ~1 ms on 24, too little
 * for a mechanism of its own, and was dropped.
 */
export const BASELINE_FLAGS: Readonly<Record<number, { set: string; reset: string; until: 'created' | 'exit' }>> = {
  20: { set: '--liftoff-only', reset: '--no-liftoff-only --wasm-tier-up --wasm-dynamic-tiering', until: 'exit' },
  24: { set: '--wasm-tiering-budget=2000000000', reset: '--wasm-tiering-budget=13000000', until: 'created' },
  26: { set: '--wasm-tiering-budget=2000000000', reset: '--wasm-tiering-budget=13000000', until: 'created' },
};

/**
 * Flags held for the rest of the run, as announced to the launcher: it sets `reset` while it
 * compiles and runs a file with a code cache (then `set` again), and before it writes the
 * caches at exit, so that every cache is read and written under V8's default flags.
 */
export interface HeldFlags {
  set: string;
  reset: string;
}

/** The global the launcher reads (bin/edp.js). */
export const HELD_FLAGS = Symbol.for('edp.heldV8Flags');

let held = false;

export interface BaselineWasmOptions {
  /** the running Node's major version */
  major?: number;
  /** sets V8 flags (node:v8's setFlagsFromString) */
  setFlags?: (flags: string) => void;
  /** the options node was given: its command line's and NODE_OPTIONS */
  nodeOptions?: string;
  /** where flags held for the rest of the run are announced to the launcher (bin/edp.js) */
  announce?: (held: HeldFlags) => void;
}

/** A flag's name as node accepts it, dashes or underscores: `--wasm-tiering-budget=1` → /wasm[-_]tiering[-_]budget/. */
function flagPattern(flag: string): RegExp {
  const name = /^--(?:no-)?([\w-]+)/.exec(flag)![1]!;
  return new RegExp(name.split(/[-_]/).join('[-_]'));
}

/**
 * Runs `create` (undici's parser set-up, jq-web's loading) with V8 keeping WebAssembly at its
 * baseline tier. When `create` returns a promise (an asynchronous compile), the flag is set
 * back once it settles.
 */
export function withBaselineWasm<T>(create: () => T, options: BaselineWasmOptions = {}): T {
  const major = options.major ?? Number(process.versions.node.split('.')[0]);
  const setFlags = options.setFlags ?? setFlagsFromString;
  const nodeOptions = options.nodeOptions ?? `${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`;
  const flags = BASELINE_FLAGS[major];
  if (!flags || flagPattern(flags.set).test(nodeOptions)) return create();
  if (flags.until === 'exit') {
    if (!held) {
      held = true;
      setFlags(flags.set);
      const announce =
        options.announce ?? ((h: HeldFlags) => ((globalThis as Record<symbol, unknown>)[HELD_FLAGS] = h));
      announce({ set: flags.set, reset: flags.reset });
    }
    return create();
  }
  return withFlags(flags, create, setFlags);
}

/** Runs `create` under `flags.set`; `flags.reset` once it returns or throws, or its promise settles. */
function withFlags<T>(flags: { set: string; reset: string }, create: () => T, setFlags: (flags: string) => void): T {
  const reset = () => setFlags(flags.reset);
  setFlags(flags.set);
  let result: T;
  try {
    result = create();
  } catch (err) {
    reset();
    throw err;
  }
  if (result instanceof Promise) return result.finally(reset) as T;
  reset();
  return result;
}
