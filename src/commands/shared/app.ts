import type { Command, OptionValues } from '@commander-js/extra-typings';
import type { Context, GlobalFlags } from '../../context.js';
import type { IO } from '../../output/io.js';
import { commandPath } from './help.js';

/**
 * What a verb's `run<Verb>` receives: the options its `command.ts` declares, typed from the
 * declaration, and its positional arguments as `args` (a tuple: `<id>` is a string, `[id]`
 * may be undefined, `<ids...>` is an array).
 */
export type OptionsOf<C> = C extends Command<infer A, infer O, infer _G> ? O & { args: A } : never;

/** A verb's handler: it returns nothing; failures are thrown and `exitCodeFor` decides the code. */
export type Run<O> = (opts: O, ctx: Context) => Promise<void>;

/** A parsed command line that was not run (the seam tests use to check flag parsing). */
export interface Parsed {
  /** the command's words, e.g. `workspaces list` */
  command: string;
  opts: OptionValues & { args: unknown[] };
  globals: GlobalFlags;
}

/**
 * Runs verbs with a context and turns their outcome into the process's exit code. With
 * `runF`, a verb's options are handed to it instead of running the verb (gh's runF seam).
 */
export class App {
  exitCode = 0;
  /** The output streams whose reader went away during the run. */
  private readonly closed = new Set<'stdout' | 'stderr'>();
  /** Ends a run that has changed nothing once its output has nowhere to go. */
  private readonly outputGone = new AbortController();
  private ctx: Context | undefined;

  constructor(
    readonly io: IO,
    readonly signal?: AbortSignal,
    readonly runF?: (parsed: Parsed) => void,
  ) {}

  /**
   * A stream's reader went away (`edp … | head`: EPIPE on the next write). A run that has sent
   * no change stops here, quietly: nobody reads what it would print. A run that has changed
   * something is never cut off half-way: it goes on to its end, as if nothing happened, text for
   * a person goes to whichever stream is still open, and the exit code says what was lost.
   */
  outputClosed(stream: 'stdout' | 'stderr'): void {
    if (this.closed.has(stream)) return;
    this.closed.add(stream);
    const ctx = this.ctx;
    if (!ctx?.changedSomething) {
      this.outputGone.abort(Object.assign(new Error(`${stream} closed`), { name: 'OutputClosedError' }));
      return;
    }
    if (stream === 'stdout') {
      ctx.output.keepReportingOnStderr();
      ctx.output.warn('the reader of standard output went away; the command goes on to its end and reports here');
    }
  }

  /**
   * Binds a verb declared in `command.ts` to its handler, loaded only when the verb runs:
   * `app.verb(list(), () => import('./list.js').then((m) => m.runList))`. The handler's options
   * type must match the declaration's.
   */
  verb<A extends unknown[], O extends OptionValues, G extends OptionValues>(
    cmd: Command<A, O, G>,
    load: () => Promise<Run<O & { args: A }>>,
  ): Command<A, O, G> {
    return cmd.action(async (...a: unknown[]) => {
      // commander calls the action with the arguments, then the options, then the command.
      const command = a[a.length - 1] as Command<A, O, G>;
      const opts = { ...command.opts(), args: a.slice(0, -2) as A };
      // The context takes the global options alone (declared on the program); a verb's own reach it as `opts`.
      let program: Command<unknown[], OptionValues, OptionValues> = command;
      while (program.parent) program = program.parent;
      const globals = program.opts() as GlobalFlags;
      if (this.runF) {
        this.runF({ command: commandPath(command).join(' '), opts, globals });
        return;
      }
      await this.execute(globals, async (ctx) => (await load())(opts, ctx));
    });
  }

  /** Runs `body` with a context; the one place a command's outcome becomes an exit code. */
  async execute(flags: GlobalFlags, body: (ctx: Context) => Promise<void>): Promise<void> {
    // Loaded here rather than at start-up: `--help` and usage errors never need them.
    const [{ Context }, { withRunOptions }] = await Promise.all([
      import('../../context.js'),
      import('../../util/suggest.js'),
    ]);
    const gone = this.outputGone.signal;
    let run: Context;
    try {
      run = new Context(this.io, flags, this.signal ? AbortSignal.any([this.signal, gone]) : gone);
    } catch (err) {
      return this.failed(err, flags);
    }
    this.ctx = run;
    // Every command suggested during the run (its hints, notes and errors) carries the options it needs pasted.
    await withRunOptions(
      () => run.settings.pastedOptions(),
      () => this.runIn(run, body),
    );
  }

  private async runIn(ctx: Context, body: (ctx: Context) => Promise<void>): Promise<void> {
    const [{ exitCodeFor, isPromptInterrupt, ExitCode }, { reportError }] = await Promise.all([
      import('../../errors.js'),
      import('../../output/errors.js'),
    ]);
    const gone = this.outputGone.signal;
    try {
      await ctx.prepare();
      await body(ctx);
      this.exitCode = ExitCode.ok;
    } catch (err) {
      const output = ctx.output;
      if (this.signal?.aborted && !isPromptInterrupt(err)) {
        // Ctrl-C while working: the run ends quietly with 130.
        this.exitCode = ExitCode.interrupted;
      } else if (gone.aborted && !ctx.changedSomething) {
        // Its reader went away and nothing was changed: the run ends quietly, with 141 (below).
        this.exitCode = ExitCode.ok;
      } else {
        reportError(output, err);
        this.exitCode = exitCodeFor(err);
      }
    }
    try {
      // --jq: what the command printed, also when it failed after printing (a degraded build).
      await ctx.flushOutput();
    } catch (err) {
      reportError(ctx.output, err);
      if (this.exitCode === ExitCode.ok) this.exitCode = exitCodeFor(err);
    } finally {
      await ctx.finish().catch(() => undefined);
    }
    await this.checkShown(ctx);
  }

  /** A run whose context could not be made (a bad global option): the error, on an output of its own. */
  private async failed(err: unknown, flags: GlobalFlags): Promise<void> {
    const [{ exitCodeFor }, { reportError }, { Output }, { outputFlagsOf }] = await Promise.all([
      import('../../errors.js'),
      import('../../output/errors.js'),
      import('../../output/output.js'),
      import('../../output/run-flags.js'),
    ]);
    const output = new Output(this.io, { ...outputFlagsOf(flags, this.io), quiet: false });
    reportError(output, err);
    this.exitCode = exitCodeFor(err);
  }

  /**
   * A run that could not show all it had to does not end in success (exit 141, the status a
   * shell gives a closed pipe, unless the run already failed): one that changed something says
   * so on the stream still open, as its changes were made but not all of them were seen.
   */
  private async checkShown(ctx: Context): Promise<void> {
    await ctx.output.settled();
    if (this.exitCode !== 0 || (this.closed.size === 0 && ctx.output.lostWrites === 0)) return;
    // Loaded already by execute (cached modules): no cost here.
    const [{ ExitCode, ExitError, exitCodeFor }, { reportError }] = await Promise.all([
      import('../../errors.js'),
      import('../../output/errors.js'),
    ]);
    if (!ctx.changedSomething) {
      // Nobody reads what a read would print: it ends quietly, as `yes | head -1` does.
      this.exitCode = ExitCode.outputClosed;
      return;
    }
    const err = new ExitError(
      'outputClosed',
      'the output was closed before everything was shown: the command ran to its end and its changes were made, but part of what it printed was lost; read the result back from the service',
    );
    reportError(ctx.output, err);
    this.exitCode = exitCodeFor(err);
  }
}

export function collectRepeatable(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}
