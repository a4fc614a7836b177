import { Writable } from 'node:stream';
import { UsageError } from '../errors.js';
import type { IO, OutStream } from './io.js';
import { terminalSafe } from './terminal-text.js';

/**
 * `--jq`: the command writes its JSON document as usual, to a stdout that holds it; the filter
 * runs on it once the command has ended. The expression is compiled before the command runs,
 * so that a bad one sends nothing.
 */
export class JqCapture {
  /** What the command wrote to stdout, in order. */
  private readonly captured: string[] = [];

  constructor(
    private readonly io: IO,
    private readonly expression: string,
  ) {}

  /** The streams the command writes to: stdout held here, the rest the run's own. */
  outputIO(): IO {
    const io = this.io;
    // stdin stays a getter: it is created only when the command reads it.
    return {
      get stdin() {
        return io.stdin;
      },
      stdout: captureStream(this.captured),
      stderr: io.stderr,
      env: io.env,
      now: io.now,
    };
  }

  /** Before the command runs: the expression compiled. */
  async prepare(): Promise<void> {
    if (this.expression.trim() === '') throw new UsageError('--jq needs a jq expression, such as .id or .[].title');
    const { checkJqFilter } = await import('./jq.js');
    await checkJqFilter(this.expression);
  }

  /** After the command ran: what it wrote goes through the filter to stdout. */
  async flush(): Promise<void> {
    const text = this.captured.splice(0).join('');
    if (text.trim() === '') return;
    const { runJqFilter } = await import('./jq.js');
    const result = await runJqFilter(this.expression, text, this.io.stderr);
    this.io.stdout.write(this.io.stdout.isTTY ? terminalSafe(result) : result);
  }
}

/** A stdout stand-in that keeps what is written, in order. */
function captureStream(into: string[]): OutStream {
  return new Writable({
    decodeStrings: false,
    write(chunk: string | Buffer, _encoding, done) {
      into.push(typeof chunk === 'string' ? chunk : chunk.toString('utf8'));
      done();
    },
  });
}
