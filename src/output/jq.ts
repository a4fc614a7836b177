import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { JqRunner } from 'jq-web';
import type { OutStream } from './io.js';
import { ExitError, UsageError } from '../errors.js';
import { withBaselineWasm } from '../http/baseline-wasm.js';

/**
 * `--jq EXPR`: the command's JSON document through a jq filter (docs/guide.md, Filtering with --jq).
 *
 * The filter is jq itself (1.7, compiled to WebAssembly by jq-web), so every jq expression means
 * what it means in jq. jq 1.7 keeps a number's literal digits while the number passes through
 * unchanged, and the document handed to it is written losslessly (util/json.ts), so recipe ids
 * beyond 2^53 come out digit for digit; arithmetic on them is double precision, as in jq. The
 * module (and its ~3 MB of wasm) loads only when --jq is given: see bench/startup.mjs.
 *
 * Output is like `gh --jq`: strings raw, other values as compact JSON, one per line.
 */

interface JqFailure extends Error {
  exitCode?: number;
  stderr?: string;
}

/** jq's exit status for an expression that does not compile. */
const COMPILE_ERROR = 3;

/**
 * jq-web's module.exports is a promise, which `import()` cannot hand over (the namespace would
 * be a thenable of the wrong kind), so it is required. The build copies it to dist/vendor
 * (it reads its wasm from beside its own file, so it is not bundled): the built command line
 * loads that copy and needs no node_modules; the sources load the package.
 */
function loadRunner(): Promise<JqRunner> {
  const require = createRequire(import.meta.url);
  for (const candidate of ['../vendor/jq-web/jq.cjs', './vendor/jq-web/jq.cjs']) {
    const path = fileURLToPath(new URL(candidate, import.meta.url));
    if (existsSync(path)) return require(path) as Promise<JqRunner>;
  }
  return require('jq-web') as Promise<JqRunner>;
}

let loading: Promise<JqRunner> | undefined;

/** jq, compiled once per process at WebAssembly's baseline tier (http/baseline-wasm.ts). */
function runner(): Promise<JqRunner> {
  loading ??= withBaselineWasm(loadRunner);
  return loading;
}

/**
 * Runs jq once. The wasm runtime sets process.exitCode to jq's status and reports jq's stderr
 * of a successful run (`debug`, `stderr`) through console.warn; both are kept from leaking
 * into this process and the stderr text is handed back.
 */
async function run(input: string, filter: string, flags: string[]): Promise<{ stdout: string; stderr: string }> {
  const jq = await runner();
  const exitCode = process.exitCode;
  /* eslint-disable no-console -- jq-web writes jq's stderr through console.warn: it is captured here, not printed */
  const warn = console.warn;
  let stderr = '';
  console.warn = (...args: unknown[]) => {
    stderr += `${String(args[args.length - 1])}\n`;
  };
  try {
    return { stdout: jq.raw(input, filter, flags) ?? '', stderr };
  } finally {
    console.warn = warn;
    process.exitCode = exitCode;
  }
  /* eslint-enable no-console */
}

/** jq's own message, without the runtime's "Non-zero exit code" preface. */
function jqMessage(err: JqFailure): string {
  const text = (err.stderr ?? err.message).replace(/^Non-zero exit code: \d+\n?/, '').trim();
  return text.replace(/\n+/g, ' ').replace(/\s+/g, ' ');
}

/**
 * A usage error (exit 2, before any request) when the expression does not compile. The
 * expression is compiled inside `if false then … else empty end`, so nothing of it runs
 * (an expression such as `range(1e12)` would otherwise run here); the newlines keep a
 * trailing `# comment` from swallowing the closing parenthesis.
 */
export async function checkJqFilter(expr: string): Promise<void> {
  try {
    await run('null', `if false then (\n${expr}\n) else empty end`, ['-n']);
  } catch (err) {
    const failure = err as JqFailure;
    if (failure.exitCode !== COMPILE_ERROR) throw err;
    // The message of the expression as typed (it does not compile, so nothing runs).
    let message = jqMessage(failure);
    try {
      await run('null', expr, ['-n']);
    } catch (plain) {
      if ((plain as JqFailure).exitCode === COMPILE_ERROR) message = jqMessage(plain as JqFailure);
    }
    throw new UsageError(`--jq: the expression does not compile: ${message}`);
  }
}

/** A jq error while filtering the output (the command itself ran): exit 1. */
export class JqRuntimeError extends ExitError {
  constructor(message: string) {
    super('failure', message);
    this.name = 'JqRuntimeError';
  }
}

/**
 * Filters `documents` (one or more JSON texts, as the command wrote them) with `expr`.
 * Resolves to the lines to print, each ending in a newline.
 */
export async function runJqFilter(expr: string, documents: string, stderr: OutStream): Promise<string> {
  let result: { stdout: string; stderr: string };
  try {
    result = await run(documents, expr, ['-r', '-c']);
  } catch (err) {
    const failure = err as JqFailure;
    if (failure.exitCode === undefined) throw err;
    throw new JqRuntimeError(`--jq: the command ran, but its output could not be filtered: ${jqMessage(failure)}`);
  }
  if (result.stderr) stderr.write(result.stderr);
  const out = result.stdout;
  return out === '' || out.endsWith('\n') ? out : `${out}\n`;
}
