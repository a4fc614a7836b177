import { spawn, spawnSync } from 'node:child_process';
import { BIN, ROOT, requireBuild } from './helpers.js';

/**
 * The built command line at a pseudo-terminal, as a person runs it: util-linux `script` gives
 * the process a terminal of the size asked for (stdin, stdout and stderr all on it), and the
 * test reads the screen's byte stream and types into it. `script` merges stdout and stderr, as
 * a terminal does.
 */

/** Why terminal tests cannot run here, or undefined when they can (util-linux script on PATH). */
export function terminalUnavailable(): string | undefined {
  const probe = spawnSync('script', ['--version'], { encoding: 'utf8' });
  if (probe.error) return 'no `script` command (util-linux) on PATH';
  if (!/util-linux/.test(`${probe.stdout}${probe.stderr}`))
    return 'the `script` on PATH is not util-linux (BSD script takes other flags)';
  return undefined;
}

/** A shell word, quoted for `sh -c`. */
const shellWord = (w: string) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`);

export interface TerminalOptions {
  env: Record<string, string | undefined>;
  columns?: number;
  rows?: number;
  /** typed once the screen shows `when` (each in order) */
  keys?: Array<{ when: string | RegExp; send: string }>;
  /** the whole run's bound; the run is killed and the test fails after it */
  timeoutMs?: number;
}

export interface TerminalRun {
  code: number | null;
  /** the bytes the terminal received, escape sequences included */
  raw: string;
  /** what a person is left looking at, roughly: escape sequences and in-place redraws removed */
  text: string;
  /** the lines of `text` */
  lines: string[];
}

// CSI and OSC sequences, and the charset selections some libraries send.

const ESCAPES =
  /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[()][0-9A-Za-z]|\u001b[=>78]/g;

/** The screen's text without escape sequences; a line redrawn with \r shows its last drawing. */
export function screenText(raw: string): string {
  return raw
    .replace(/\u001b\[1?G/g, '\r') // cursor to the first column: the line is drawn again
    .replace(ESCAPES, '')
    .replace(/\r\n/g, '\n')
    .split('\n')
    .map((line) => line.split('\r').filter(Boolean).pop() ?? '')
    .join('\n');
}

export function atTerminal(argv: string[], opts: TerminalOptions): Promise<TerminalRun> {
  requireBuild();
  const columns = opts.columns ?? 80;
  const rows = opts.rows ?? 24;
  const command = `stty cols ${columns} rows ${rows}; exec ${[process.execPath, BIN, ...argv].map(shellWord).join(' ')}`;
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    TERM: 'xterm-256color',
  };
  for (const [k, v] of Object.entries(opts.env)) if (v !== undefined) env[k] = v;
  // -e: script exits with the command's code; -q: no banner; /dev/null: no typescript file.
  const child = spawn('script', ['-qec', command, '/dev/null'], { cwd: ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] });
  let raw = '';
  const keys = [...(opts.keys ?? [])];
  let typedUpTo = 0;
  const typeWhenShown = () => {
    while (keys.length > 0) {
      const { when, send } = keys[0]!;
      const seen = screenText(raw.slice(typedUpTo));
      if (typeof when === 'string' ? !seen.includes(when) : !when.test(seen)) return;
      keys.shift();
      typedUpTo = raw.length;
      child.stdin.write(send);
    }
  };
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    raw += d;
    typeWhenShown();
  });
  child.stderr.setEncoding('utf8').on('data', (d: string) => (raw += d));
  child.stdin.on('error', () => undefined);
  // stdin stays open until the end: at end of input, script would stop reading the terminal.
  return new Promise((resolve, reject) => {
    // A backstop, not a wait: it only ends a child that hung, so that the test fails with its screen.
    // eslint-disable-next-line no-restricted-syntax
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(
          `edp ${argv.join(' ')} at a terminal did not end within ${opts.timeoutMs ?? 20_000} ms; screen:\n${screenText(raw)}`,
        ),
      );
    }, opts.timeoutMs ?? 20_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      child.stdin.destroy();
      const text = screenText(raw);
      if (keys.length > 0)
        return reject(new Error(`the screen never showed ${String(keys[0]!.when)}; screen:\n${text}`));
      resolve({ code, raw, text, lines: text.split('\n') });
    });
  });
}
