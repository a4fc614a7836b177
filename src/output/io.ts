import type { Readable, Writable } from 'node:stream';

export type InStream = Readable & { isTTY?: boolean; setRawMode?: (raw: boolean) => unknown };
export type OutStream = Writable & { isTTY?: boolean; columns?: number };

/** The process's streams and environment; tests pass their own. */
export interface IO {
  stdin: InStream;
  stdout: OutStream;
  stderr: OutStream;
  env: Record<string, string | undefined>;
  /**
   * How the run pauses: before repeating a request (backoff, Retry-After) and between the reads
   * of a wait (--poll-interval); real time when not given. In-process tests pass one that
   * returns at once, so that a retry or a wait costs no wall time.
   */
  sleep?: ((ms: number, signal?: AbortSignal) => Promise<void>) | undefined;
  /**
   * The clock of a wait (milliseconds, as Date.now): its deadline (--wait-timeout) and the age
   * of what it read last; real time when not given. Tests pass the clock their `sleep` moves on,
   * so that a wait reaches its deadline after the pauses it took, however fast they returned.
   */
  now?: (() => number) | undefined;
}

/** The process's own streams. stdin is created on first use: only commands that read it pay for the stream. */
export function processIO(): IO {
  return {
    get stdin() {
      return process.stdin;
    },
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
  };
}

/**
 * Whether a stream can no longer be written: its reader went away (`edp … | head`, EPIPE) or it
 * failed otherwise. Writes to it are lost; Output counts them.
 */
export function isClosed(stream: OutStream): boolean {
  return stream.destroyed || !!stream.errored;
}

export interface ColorFlags {
  /** false when --no-color was given */
  color: boolean;
}

/** NO_COLOR and --no-color switch colour off, FORCE_COLOR switches it on, else colour follows the TTY. */
export function colorLevel(
  stream: OutStream,
  env: Record<string, string | undefined>,
  flags: ColorFlags,
): 0 | 1 | 2 | 3 {
  if (!flags.color) return 0;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return 0;
  const force = env.FORCE_COLOR;
  if (force !== undefined) {
    if (force === '0' || force === 'false') return 0;
    if (force === '2') return 2;
    if (force === '3') return 3;
    return 1;
  }
  if (!stream.isTTY) return 0;
  if (env.TERM === 'dumb') return 0;
  return env.COLORTERM === 'truecolor' ? 3 : 2;
}
