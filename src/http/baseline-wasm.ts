import { setFlagsFromString } from 'node:v8';

/**
 * undici parses responses with WebAssembly (llhttp), and `--jq` runs jq compiled to it. V8
 * compiles WebAssembly with its baseline compiler and, once a function has run a while, again
 * with its optimizing one on background threads; a process waits for that work at exit: ~85 ms
 * on Node 20 after one request, ~55 ms on Node 22 and 24 after two, more than the requests
 * took. For what one command runs, the baseline code is fast enough. The build has undici create
 * its parser through `withBaselineWasm` (build.mjs), and `--jq` loads jq through it
 * (output/jq.ts): it raises V8's tier-up budget while a module is compiled and instantiated
 * (each instance takes its budget then), and sets it back to V8's default right after.
 *
 * Back to the default, not merely lower: V8 keys code caches by its flags, those of the CLI
 * (bin/edp.js) and Node's own for its built-in modules. Any flag left off its default makes
 * V8 refuse them all (Node's built-in modules then load ~9 ms slower, measured). The default
 * differs between V8 versions, hence one per Node major; on a major not listed, or when the
 * user gave node a tier-up budget of their own, the module is created as it would be.
 */
export const DEFAULT_TIERING_BUDGET: Readonly<Record<number, number>> = {
  20: 1_800_000,
  22: 13_000_000,
  24: 13_000_000,
};

/** The budget while the parser is created: in effect no tier-up within a command's lifetime. */
export const RAISED_TIERING_BUDGET = 2_000_000_000;

export interface BaselineWasmOptions {
  /** the running Node's major version */
  major?: number;
  /** sets V8 flags (node:v8's setFlagsFromString) */
  setFlags?: (flags: string) => void;
  /** the options node was given: its command line's and NODE_OPTIONS */
  nodeOptions?: string;
}

/**
 * Runs `create` (undici's parser set-up, jq-web's loading) with V8's WebAssembly tier-up budget
 * raised. When `create` returns a promise (an asynchronous compile), the budget is set back once
 * it settles.
 */
export function withBaselineWasm<T>(create: () => T, options: BaselineWasmOptions = {}): T {
  const major = options.major ?? Number(process.versions.node.split('.')[0]);
  const setFlags = options.setFlags ?? setFlagsFromString;
  const nodeOptions = options.nodeOptions ?? `${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`;
  const defaultBudget = DEFAULT_TIERING_BUDGET[major];
  if (defaultBudget === undefined || /wasm[-_]tiering[-_]budget/.test(nodeOptions)) return create();
  const restore = () => setFlags(`--wasm-tiering-budget=${defaultBudget}`);
  setFlags(`--wasm-tiering-budget=${RAISED_TIERING_BUDGET}`);
  let result: T;
  try {
    result = create();
  } catch (err) {
    restore();
    throw err;
  }
  if (result instanceof Promise) return result.finally(restore) as T;
  restore();
  return result;
}
