import { fstatSync } from 'node:fs';
import type { Readable, Writable } from 'node:stream';

export type InStream = Readable & { isTTY?: boolean; setRawMode?: (raw: boolean) => unknown };
export type OutStream = Writable & {
  isTTY?: boolean;
  columns?: number;
  /** the file descriptor of a process's own stream */
  fd?: number;
  /** a stream without a file descriptor that stands for a pipe (the tests' `| head`) */
  isPipe?: boolean;
};

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
   * The run's clock (milliseconds, as Date.now): a wait's deadline (--wait-timeout) and the age
   * of what it read last, how long a step has taken, and what a time shown as "5 minutes ago" is
   * measured from; real time when not given. Tests pass the clock their `sleep` moves on, so that
   * a wait reaches its deadline after the pauses it took, however fast they returned, or pin it.
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

/**
 * Whether what the stream takes is known to reach a reader: a terminal shows it and a file keeps
 * it, but a pipe or a socket takes a write into a buffer its reader may never read (`| head -1`
 * reads the whole buffer and prints one line), and Node cannot ask how much of it is unread.
 * A stream without a file descriptor (one given to `main`) hands each write to its reader itself,
 * unless it says it stands for a pipe.
 */
export function keepsWrites(stream: OutStream): boolean {
  if (stream.isTTY) return true;
  if (typeof stream.fd !== 'number') return !stream.isPipe;
  try {
    const stat = fstatSync(stream.fd);
    return !stat.isFIFO() && !stat.isSocket();
  } catch {
    // A descriptor that cannot be examined (closed): nothing is known to reach anyone.
    return false;
  }
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
