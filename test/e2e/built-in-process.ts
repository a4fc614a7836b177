import { PassThrough, Writable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { errorDocument } from '../../src/output/error-document.js';
import { parseJson } from '../../src/util/json.js';
import { pretendTime } from '../helpers.js';
import { childEnv, type EdpRun, type EdpRunOptions } from './helpers.js';

/**
 * The shipped bundle (dist/cli.cjs, through test/bundle/cli.ts, which refuses a dist/ older than
 * its sources) run in this process, for the built-tool files that judge what the command line
 * sends, reads or shows rather than how its process behaves: a process adds a Node start and a
 * load of the bundle to each run and nothing to their verdict. Where the process is the
 * subject (the launcher and its code caches, signals, closed pipes, a terminal, processes at
 * once), a test runs `bin/edp.js` as a process (runEdp, startEdp: test/e2e/helpers.ts).
 *
 * A run sees what runEdp gives its process: PATH, HOME and the environment given, nothing else
 * of the test runner's; standard input holding `stdin` and then closed; stdout and stderr that
 * are not terminals. A fault no command caught ends it as the process's entry ends it (`run` in
 * src/cli.ts): one `error: …` line, or the JSON error document under --json, and exit 1. Its
 * pauses do not wait, on pretend time as the in-process command tests' (`pretendTime`), so a
 * wait still ends at its deadline.
 *
 * The bundle loads at the first run (test/bundle/cli.ts), so that a file skipped for another
 * reason never asks for a build.
 *
 * Runs may overlap: the command line keeps no state of a run at module level (only caches of
 * pure results: loaded modules, digests of credentials); the config file is shared under its
 * own lock, as between processes.
 */
export async function runBuiltInProcess(
  argv: string[],
  opts: Pick<EdpRunOptions, 'env' | 'stdin'> = {},
): Promise<EdpRun> {
  const env = childEnv(opts.env);
  const stdin = new PassThrough();
  stdin.end(opts.stdin ?? '');
  const stdout = new Collected();
  const stderr = new Collected();
  const { main, wantsMachineOutput } = await (bundle ??= import('../bundle/cli.js'));
  const time = pretendTime();
  const code = await main(argv, { stdin, stdout, stderr, env, sleep: time.sleep, now: time.now }).catch(
    (err: unknown) => {
      const message = err instanceof Error ? err.message : String(err);
      stderr.write(
        wantsMachineOutput(argv, false)
          ? `${JSON.stringify(errorDocument({ code: 'unexpected_error', message }))}\n`
          : `error: ${message}\n`,
      );
      return 1;
    },
  );
  const [out, err] = [stdout.text, stderr.text];
  return {
    code,
    signal: null,
    stdout: out,
    stderr: err,
    json: () => parseJson(out) as any,
    errorJson: () => JSON.parse(err.trim().split('\n').pop()!),
  };
}

let bundle: Promise<typeof import('../bundle/cli.js')> | undefined;

/** A pipe's reader that keeps everything: each write is taken as it is made. */
class Collected extends Writable {
  text = '';
  private readonly decoder = new StringDecoder('utf8');
  constructor() {
    super({ decodeStrings: false });
  }
  override _write(chunk: Buffer | string, _encoding: BufferEncoding, done: (err?: Error | null) => void): void {
    this.text += typeof chunk === 'string' ? chunk : this.decoder.write(chunk);
    done();
  }
}
