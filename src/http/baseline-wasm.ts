import { setFlagsFromString } from 'node:v8';

/**
 * undici parses responses with WebAssembly (llhttp), and `--jq` runs jq compiled to it. V8
 * compiles WebAssembly with its baseline compiler and, once a function has run a while, again
 * with its optimizing one on background threads: a process waits for that work at exit (more
 * than the requests took), and a long run (paging through 100,000 items) peaks higher. For what one
 * command runs, the baseline code is fast enough. The build has undici create its parser
 * through `withBaselineWasm` (build.mjs), and `--jq` loads jq through it (output/jq.ts).
 *
 * On Node 20 and 22 the launcher sets V8's `--liftoff-only` before anything is compiled, for
 * the whole run (bin/edp.js), and this module leaves the flags alone. Node 24 and 26 do not act
 * on `--liftoff-only` at run time; there each instance takes its tier-up budget when it is
 * created: raised then, and set back right after, no command's few requests use it up (a run
 * of many thousands may, and then tiers up as it always did on this Node). Set back at once,
 * since V8 keys code caches by its flags, the launcher's and Node's own for its built-in modules
 * (a flag off its default makes V8 refuse them). What it saves: docs/benchmarks.md.
 *
 * On a major not listed here nor in the launcher (a newer one: V8 renames and drops flags, and
 * an unknown one is an error printed on stderr), or when the user gave node the flag, the module
 * is created as it would be: correct, and a few requests may cost a wait at exit;
 * `bench/startup.mjs` says so when it measures such a Node, which is the time to measure it and
 * add its line here.
 */
export const BASELINE_FLAGS: Readonly<Record<number, { set: string; reset: string }>> = {
  24: { set: '--wasm-tiering-budget=2000000000', reset: '--wasm-tiering-budget=13000000' },
  26: { set: '--wasm-tiering-budget=2000000000', reset: '--wasm-tiering-budget=13000000' },
};

export interface BaselineWasmOptions {
  /** the running Node's major version */
  major?: number;
  /** sets V8 flags (node:v8's setFlagsFromString) */
  setFlags?: (flags: string) => void;
  /** the options node was given on its command line (NODE_OPTIONS takes no V8 flags of these) */
  nodeOptions?: string;
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
  const nodeOptions = options.nodeOptions ?? process.execArgv.join(' ');
  const flags = BASELINE_FLAGS[major];
  if (!flags || flagPattern(flags.set).test(nodeOptions)) return create();
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
