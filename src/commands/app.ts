import type { Command } from 'commander';
import type { Context, GlobalFlags } from '../context.js';
import type { IO } from '../output/io.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Opts = Record<string, any>;
export type Handler = (ctx: Context, args: unknown[], opts: Opts) => Promise<number | void>;

/** Runs command handlers with a context and turns their outcome into the process's exit code. */
export class App {
  exitCode = 0;

  constructor(
    readonly io: IO,
    readonly signal?: AbortSignal,
  ) {}

  /** The commander action for a handler: positional arguments, then the command's own options. */
  run(handler: Handler): (...a: unknown[]) => Promise<void> {
    return async (...a: unknown[]) => {
      const command = a[a.length - 1] as Command;
      const args = a.slice(0, -2);
      const flags = command.optsWithGlobals() as GlobalFlags & Opts;
      // Loaded here rather than at start-up: `--help` and usage errors never need them.
      const [{ Context }, { exitCodeFor, isPromptInterrupt }, { reportError }, { Output }] = await Promise.all([
        import('../context.js'),
        import('../errors.js'),
        import('../output/errors.js'),
        import('../output/output.js'),
      ]);
      let ctx: Context | undefined;
      try {
        ctx = new Context(this.io, flags, this.signal);
        await ctx.prepare();
        this.exitCode = (await handler(ctx, args, command.opts())) ?? 0;
      } catch (err) {
        const output = ctx?.output ?? new Output(this.io, { json: !!flags.json, ndjson: !!flags.ndjson, quiet: false, verbose: !!flags.verbose, color: flags.color !== false });
        if (this.signal?.aborted && !isPromptInterrupt(err)) {
          // Ctrl-C while working: the run ends quietly with 130.
          this.exitCode = 130;
        } else {
          reportError(output, err);
          this.exitCode = exitCodeFor(err);
        }
      }
      try {
        // --jq: what the command printed, also when it failed after printing (a degraded build).
        await ctx?.flushOutput();
      } catch (err) {
        reportError(ctx!.output, err);
        if (this.exitCode === 0) this.exitCode = exitCodeFor(err);
      } finally {
        await ctx?.finish().catch(() => undefined);
      }
    };
  }
}

/** A lazily loaded handler: the module loads only when its command runs. */
export function lazy<M>(load: () => Promise<M>, pick: (m: M) => Handler): Handler {
  return async (ctx, args, opts) => pick(await load())(ctx, args, opts);
}

export function collectRepeatable(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}
