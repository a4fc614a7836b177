import { setFlagsFromString } from 'node:v8';

/**
 * undici parses responses with WebAssembly (llhttp), and `--jq` runs jq compiled to it. V8
 * compiles WebAssembly with its baseline compiler and, once a function has run a while, again
 * with its optimizing one on background threads; a process waits for that work at exit, ~55 ms
 * after two requests, more than the requests took. For what one command runs, the baseline code
 * is fast enough.
 *
 * On Node 20 and 22 the launcher sets V8's `--liftoff-only` for the whole run (bin/edp.js). Node
 * 24 does not act on that flag at run time, so there the build has undici create its parser
 * through `withBaselineWasm` (build.mjs), and `--jq` loads jq through it (output/jq.ts): V8's
 * tier-up budget, which each instance takes when it is created, is raised while the module is
 * compiled and instantiated, then set back to its default. No command's few requests use that
 * budget up; a run of many thousands may, and then tiers up as it always did on this Node.
 *
 * Back to the default, not merely lower: V8 keys code caches by its flags, those of the CLI
 * (bin/edp.js) and Node's own for its built-in modules, and a flag left off its default makes V8
 * refuse them all. On a major not listed, or when the user gave node the flag, the module is
 * created as it would be.
 */
export const BASELINE_FLAGS: Readonly<Record<number, { set: string; reset: string }>> = {
  24: { set: '--wasm-tiering-budget=2000000000', reset: '--wasm-tiering-budget=13000000' },
};

export interface BaselineWasmOptions {
  /** the running Node's major version */
  major?: number;
  /** sets V8 flags (node:v8's setFlagsFromString) */
  setFlags?: (flags: string) => void;
  /** the options node was given: its command line's and NODE_OPTIONS */
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
  const nodeOptions = options.nodeOptions ?? `${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`;
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
