import { Command, CommanderError, type CommandUnknownOpts } from '@commander-js/extra-typings';
import { App, type Parsed } from './commands/shared/app.js';
import { registerCommands } from './commands/index.js';
import { exitCodesHelp } from './errors.js';
import { errorDocument } from './output/error-document.js';
import { GLOBAL_OPTIONS } from './global-options.js';
import { HELP_LAYOUT, helpWidth, terminalWidth, wrap } from './commands/shared/help.js';
import { VERSION } from './version.js';
import { shellWord } from './util/shell.js';
import { processIO, type IO } from './output/io.js';
import { useCommonJsLoader, type CommonJsLoader } from './util/commonjs.js';

/** The command tree for `argv` (only the invoked area is loaded; `all` loads every area). */
export async function buildProgram(app: App, argv: string[] = [], all = false): Promise<CommandUnknownOpts> {
  const { io } = app;
  const program = new Command('edp')
    .description(
      'Operate the Embedded Data Pipeline service: workspaces, connections, extraction, loading, recipes, webhooks and roles.',
    )
    .version(VERSION, '-V, --version')
    .showHelpAfterError('(run with --help for usage)')
    .showSuggestionAfterError(true)
    .configureOutput(outputFor(io, argv))
    .exitOverride();
  for (const o of GLOBAL_OPTIONS) program.option(o.flags, o.help);
  program.addHelpText('after', ({ command, error }) => {
    const width = helpWidth(command, error);
    const sandbox = wrap(
      'Run `edp sandbox` for a local emulator of the whole service, and `edp help environment` for the environment variables edp reads.',
      width,
    );
    return `\n${exitCodesHelp(width)}\n${sandbox.join('\n')}`;
  });
  await registerCommands(program, app, argv, all);
  // Every help is laid out alike (shared/help.ts); the commands take it from the program below.
  program.configureHelp({ ...program.configureHelp(), ...HELP_LAYOUT });
  const machine = wantsMachineOutput(argv, !!io.stderr.isTTY);
  applyToAll(program, (cmd) => {
    // Verbs are declared apart from their parent (commands/*/command.ts): they take its
    // settings here (help, output, exit), parents first.
    if (cmd.parent) cmd.copyInheritedSettings(cmd.parent);
    cmd.exitOverride().configureOutput(outputFor(io, argv, cmd));
    // Under --json stderr carries the JSON error document alone, without the help hint.
    if (machine) cmd.showHelpAfterError(false);
  });
  return program;
}

/**
 * --json, --ndjson or --jq (which implies --json) among the options, before a `--`: errors are
 * then JSON documents too. A --jq alone at a terminal is a person reading: errors stay text, as
 * gh prints them (`stderrIsTTY`).
 */
export function wantsMachineOutput(argv: string[], stderrIsTTY = false): boolean {
  const end = argv.indexOf('--');
  const options = end < 0 ? argv : argv.slice(0, end);
  if (options.some((a) => a === '--json' || a === '--ndjson')) return true;
  return !stderrIsTTY && options.some((a) => a === '--jq' || a.startsWith('--jq='));
}

/**
 * Where commander writes. Its own parse errors (unknown option, missing argument) already read
 * `error: …`, the one error format; under --json they become the JSON error document with code
 * `usage_error`, like every usage error the tool finds itself (exit 2 either way).
 */
function outputFor(io: IO, argv: string[], cmd?: CommandUnknownOpts) {
  const machine = wantsMachineOutput(argv, !!io.stderr.isTTY);
  return {
    writeOut: (s: string) => io.stdout.write(s),
    writeErr: (s: string) => io.stderr.write(s),
    getOutHelpWidth: () => terminalWidth(io.stdout),
    getErrHelpWidth: () => terminalWidth(io.stderr),
    outputError: (text: string, write: (s: string) => void) => {
      const s = withStdinHint(withFileHint(text, argv), argv, cmd);
      if (!machine) return write(s);
      const message = s.trim().replace(/^error:\s*/i, '');
      write(`${JSON.stringify(errorDocument({ code: 'usage_error', message }))}\n`);
    },
  };
}

/**
 * `edp plan fleet.yaml`: the file was given as an argument where `-f` takes it. The error that
 * the option is missing then says which command line was meant.
 */
function withFileHint(text: string, argv: string[]): string {
  if (!text.includes("required option '-f, --file <file>' not specified")) return text;
  const file = argv.find((a) => /\.(ya?ml|json)$/i.test(a) && !a.startsWith('-'));
  if (!file) return text;
  const meant = argv.map((a) => (a === file ? `-f ${shellWord(a)}` : shellWord(a))).join(' ');
  return text.replace(/not specified/, `not specified; did you mean \`edp ${meant}\`?`);
}

/**
 * `edp auth login --password x`: a secret given as an argument, to a verb that reads it from
 * standard input (`--password-stdin`, `--secret-stdin`). Commander suggests only close
 * spellings; this names the flag meant, says why the value is not taken (the shell's history
 * and the process list keep arguments), and never repeats the value, even one given as
 * `--password=VALUE`.
 */
function withStdinHint(text: string, argv: string[], cmd: CommandUnknownOpts | undefined): string {
  const m = /unknown option '(--[a-z][\w-]*)(=[^']*)?'/.exec(text);
  const flag = m?.[1];
  if (!m || !flag || !cmd?.options.some((o) => o.long === `${flag}-stdin`)) return text;
  const what = flag.slice(2).replace(/-/g, ' ');
  const at = argv.findIndex((a) => a === flag || a.startsWith(`${flag}=`));
  // The value given (its own word, or after `=`) is left out of the command suggested.
  const skip = at >= 0 && argv[at] === flag && argv[at + 1] !== undefined && !argv[at + 1]!.startsWith('-') ? 2 : 1;
  const rest = at >= 0 ? [...argv.slice(0, at), ...argv.slice(at + skip)] : argv;
  const variable = `$${flag.slice(2).replace(/-/g, '_').toUpperCase()}`;
  const meant = `printf %s "${variable}" | edp ${[...rest, `${flag}-stdin`].map(shellWord).join(' ')}`;
  const named = text.replace(m[0], `unknown option '${flag}${m[2] ? '=…' : ''}'`);
  return named.replace(
    /\n?$/,
    `\n(Did you mean ${flag}-stdin? A ${what} is never taken as an argument, which the shell's history and the process list would keep: pipe it in, \`${meant}\`)\n`,
  );
}

function applyToAll(cmd: CommandUnknownOpts, fn: (c: CommandUnknownOpts) => void): void {
  fn(cmd);
  for (const sub of cmd.commands) applyToAll(sub, fn);
}

/**
 * Runs the command line; resolves to the exit code. `argv` excludes the node binary and the
 * script. With `runF`, the verb is parsed and handed to it instead of running (tests).
 */
export async function main(
  argv: string[],
  io: IO = processIO(),
  signal?: AbortSignal,
  runF?: (parsed: Parsed) => void,
): Promise<number> {
  const app = new App(io, signal, runF);
  // A reader that stops early (`edp … | head`) makes the next write fail (EPIPE): the run is told,
  // and decides whether to stop (App.outputClosed). Any other failure of a stream ends it too.
  const closed = (stream: 'stdout' | 'stderr') => () => app.outputClosed(stream);
  const onStdout = closed('stdout');
  const onStderr = closed('stderr');
  io.stdout.on('error', onStdout);
  io.stderr.on('error', onStderr);
  try {
    return await runProgram(app, argv, io);
  } finally {
    io.stdout.off('error', onStdout);
    io.stderr.off('error', onStderr);
  }
}

async function runProgram(app: App, argv: string[], io: IO): Promise<number> {
  // `edp __complete WORD…` (hidden, for the completion scripts) needs the whole tree and no parsing of the words.
  const completing = argv[0] === '__complete';
  const program = await buildProgram(app, argv, completing);
  if (completing) {
    const { runComplete } = await import('./commands/completion/shared/complete.js');
    return runComplete(program, argv.slice(1), io);
  }
  if (argv.length === 0) {
    program.outputHelp();
    return 0;
  }
  try {
    await program.parseAsync(argv, { from: 'user' });
    return app.exitCode;
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help')
        return 0;
      // Commander has already printed the message, which names the option or argument.
      return err.exitCode === 0 ? 0 : 2;
    }
    throw err;
  }
}

/**
 * The process entry: wires Ctrl-C to cancellation and exit code 130. The launcher passes its
 * loader of built CommonJS files with a code cache (bin/edp.js).
 */
export function run(launcher: { loadCommonJs?: CommonJsLoader } = {}): void {
  if (launcher.loadCommonJs) useCommonJsLoader(launcher.loadCommonJs);
  const controller = new AbortController();
  // The exit code of the signal that stopped the run: 128 + its number, as a shell reports it.
  let stoppedBy: number | undefined;
  // A write to a closed stream fails after the run has ended too (the last flush): never a crash.
  // During the run, main() hears of it and decides what follows.
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => undefined);
  // Ctrl-C, and a stop asked by a supervisor (SIGTERM: CI cancelling a job, a container
  // stopping) or a closed terminal (SIGHUP), stop the run the same way: what is under way
  // reaches a safe point, and the rows that say what landed are printed. A second signal ends
  // the process at once.
  for (const [name, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const) {
    process.on(name, () => {
      if (stoppedBy !== undefined) process.exit(stoppedBy);
      stoppedBy = code;
      // An InterruptedError by name (errors.ts is not loaded this early; nothing checks the class).
      controller.abort(Object.assign(new Error('interrupted'), { name: 'InterruptedError' }));
      setTimeout(() => process.exit(code), 2000).unref();
    });
  }
  main(process.argv.slice(2), processIO(), controller.signal).then(
    (code) => exitOnceWritten(stoppedBy ?? code),
    (err) => {
      // The one error format, also for a fault no command caught.
      const message = err instanceof Error ? err.message : String(err);
      process.stderr.write(
        wantsMachineOutput(process.argv.slice(2), !!process.stderr.isTTY)
          ? `${JSON.stringify(errorDocument({ code: 'unexpected_error', message }))}\n`
          : `error: ${message}\n`,
      );
      exitOnceWritten(1);
    },
  );
}

/**
 * Ends the process once stdout and stderr have taken what was written to them (a pipe may
 * still be draining on some systems). When `main` settles the run's work is done: answers
 * printed, the configuration file written, connections closed. Exiting then, rather than
 * letting the event loop run dry, skips Node's tear-down of the environment and its heap
 * (measured in docs/benchmarks.md). `exit` handlers still run.
 */
function exitOnceWritten(code: number): void {
  process.exitCode = code;
  let open = 2;
  const written = () => {
    if (--open === 0) process.exit();
  };
  process.stdout.write('', written);
  process.stderr.write('', written);
}
