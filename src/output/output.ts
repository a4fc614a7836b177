import { Chalk, type ChalkInstance } from 'chalk';
import { stringifyJson } from '../util/json.js';
import { colorLevel, type IO } from './io.js';
import { collect } from '../util/collect.js';
import { terminalSafe, terminalSafeStyled } from './terminal-text.js';

export interface OutputFlags {
  json: boolean;
  ndjson: boolean;
  quiet: boolean;
  verbose: boolean;
  color: boolean;
}

export interface Column<T> {
  header: string;
  value: (item: T) => unknown;
  /** colouring for a table cell on a terminal */
  style?: ((text: string, item: T, c: ChalkInstance) => string) | undefined;
}

export interface Spinner {
  update(text: string): void;
  succeed(text?: string): void;
  fail(text?: string): void;
  warn(text?: string): void;
  stop(): void;
}

/** A value as a person sees it in a table or a detail line, control characters escaped. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'object' && value.constructor !== Object && !Array.isArray(value)) return terminalSafe(String(value));
  if (typeof value === 'object') return stringifyJson(value);
  return terminalSafe(String(value));
}

/**
 * The only writer to the terminal. Data goes to stdout; progress, warnings and prompts go
 * to stderr. Tables on a terminal, tab-separated rows when piped, exact API objects with
 * --json / --ndjson. Everything written for a person (lines, notes, tables, spinners) has its
 * control characters escaped here (terminal-text.ts); `write`, `json` and `ndjson` are exact.
 */
export class Output {
  readonly out: ChalkInstance;
  readonly err: ChalkInstance;

  constructor(readonly io: IO, readonly flags: OutputFlags) {
    this.out = new Chalk({ level: colorLevel(io.stdout, io.env, flags) });
    this.err = new Chalk({ level: colorLevel(io.stderr, io.env, flags) });
  }

  get machine(): boolean {
    return this.flags.json || this.flags.ndjson;
  }

  get stdoutIsTTY(): boolean {
    return !!this.io.stdout.isTTY;
  }

  /** Exact bytes: machine output such as a raw response body. */
  write(text: string): void {
    this.io.stdout.write(text);
  }

  /** A line for a person on stdout. */
  line(text = ''): void {
    this.io.stdout.write(`${this.forOut(text)}\n`);
  }

  /** Text for a person: service text cannot drive the terminal; this tool's colours stay. */
  private forOut(text: string): string {
    return terminalSafeStyled(text, this.out.level > 0);
  }

  private forErr(text: string): string {
    return terminalSafeStyled(text, this.err.level > 0);
  }

  json(value: unknown): void {
    this.io.stdout.write(`${stringifyJson(value, 2)}\n`);
  }

  ndjson(value: unknown): void {
    this.io.stdout.write(`${stringifyJson(value)}\n`);
  }

  /** Progress and notes for a person, on stderr; silent with --quiet. */
  info(text: string): void {
    if (!this.flags.quiet) this.io.stderr.write(`${this.forErr(text)}\n`);
  }

  warn(text: string): void {
    this.io.stderr.write(`${this.err.yellow('!')} ${this.forErr(text)}\n`);
  }

  success(text: string): void {
    if (!this.flags.quiet) this.io.stderr.write(`${this.err.green('✓')} ${this.forErr(text)}\n`);
  }

  debug(text: string): void {
    if (this.flags.verbose) this.io.stderr.write(`${this.err.dim(this.forErr(text))}\n`);
  }

  /** An error for a person on stderr: the label in colour, the text (which may quote the service) made safe. */
  error(label: string, lines: string[]): void {
    const [first = '', ...rest] = lines;
    this.io.stderr.write(`${this.err.red(label)} ${terminalSafe(first)}\n`);
    for (const line of rest) this.io.stderr.write(`${terminalSafe(line)}\n`);
  }

  /** One JSON array, written as items arrive so that memory does not grow with the list. */
  async jsonArray(items: AsyncIterable<unknown> | Iterable<unknown>): Promise<number> {
    const out = this.buffered();
    let n = 0;
    try {
      for await (const item of items) {
        const text = stringifyJson(item, 2).replace(/\n/g, '\n  ');
        out.write(n === 0 ? `[\n  ${text}` : `,\n  ${text}`);
        n++;
      }
      out.write(n === 0 ? '[]\n' : '\n]\n');
    } finally {
      out.flush();
    }
    return n;
  }

  /**
   * Batches many small writes (one per list item would be one system call each) into chunks;
   * callers flush at the end. Chunks stay small, so streaming to a reader like jq still flows.
   */
  private buffered(): { write(text: string): void; flush(): void } {
    let pending = '';
    return {
      write: (text) => {
        pending += text;
        if (pending.length >= 65_536) {
          this.io.stdout.write(pending);
          pending = '';
        }
      },
      flush: () => {
        if (pending) this.io.stdout.write(pending);
        pending = '';
      },
    };
  }

  /** A single object: JSON as the service sent it, or key/value lines for a person. */
  async object(value: unknown, fields?: Array<[string, unknown]>): Promise<void> {
    if (this.machine) return this.json(value);
    const rows = fields ?? Object.entries((value ?? {}) as Record<string, unknown>);
    const width = Math.max(0, ...rows.map(([k]) => k.length));
    for (const [k, v] of rows) {
      this.line(`${this.out.bold(terminalSafe(k).padEnd(width))}  ${cellText(v)}`);
    }
  }

  /**
   * A list: --json one array (streamed), --ndjson one item per line (streamed, constant
   * memory), a table on a terminal, tab-separated rows without a header when piped.
   */
  async list<T>(items: AsyncIterable<T> | Iterable<T>, columns: Array<Column<T>>, opts: { empty?: string } = {}): Promise<number> {
    let n = 0;
    if (this.flags.ndjson) {
      const out = this.buffered();
      try {
        for await (const item of items) {
          out.write(`${stringifyJson(item)}\n`);
          n++;
        }
      } finally {
        out.flush();
      }
      return n;
    }
    if (this.flags.json) return this.jsonArray(items);
    if (!this.stdoutIsTTY) {
      const out = this.buffered();
      try {
        for await (const item of items) {
          out.write(`${columns.map((c) => cellText(c.value(item)).replace(/[\t\n]/g, ' ')).join('\t')}\n`);
          n++;
        }
      } finally {
        out.flush();
      }
      return n;
    }
    const rows = await collect(items);
    n = rows.length;
    if (n === 0) {
      this.info(opts.empty ?? 'No items.');
      return 0;
    }
    await this.table(columns, rows);
    return n;
  }

  async table<T>(columns: Array<Column<T>>, rows: T[]): Promise<void> {
    const { default: Table } = await import('cli-table3');
    const table = new Table({
      head: columns.map((c) => this.out.bold(terminalSafe(c.header))),
      style: { head: [], border: this.out.level > 0 ? ['grey'] : [] },
      chars: { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' },
    });
    for (const row of rows) {
      table.push(
        columns.map((c) => {
          const text = cellText(c.value(row));
          return c.style && this.out.level > 0 ? c.style(text, row, this.out) : text;
        }),
      );
    }
    this.line(table.toString());
  }

  /** A spinner on a terminal; a plain line at the end otherwise. Always on stderr. */
  async spinner(text: string): Promise<Spinner> {
    const quiet = this.flags.quiet;
    const safe = (t: string) => this.forErr(t);
    if (!this.io.stderr.isTTY || quiet) {
      let current = text;
      const end = (mark: string, t?: string) => {
        if (!quiet) this.io.stderr.write(`${mark} ${safe(t ?? current)}\n`);
      };
      return {
        update: (t) => (current = t),
        succeed: (t) => end('✓', t),
        fail: (t) => end('✗', t),
        warn: (t) => end('!', t),
        stop: () => undefined,
      };
    }
    const { default: ora } = await import('ora');
    const s = ora({ text: safe(text), stream: this.io.stderr, color: 'cyan', isEnabled: true, discardStdin: false }).start();
    const opt = (t?: string) => (t === undefined ? undefined : safe(t));
    return {
      update: (t) => {
        s.text = safe(t);
      },
      succeed: (t) => s.succeed(opt(t)),
      fail: (t) => s.fail(opt(t)),
      warn: (t) => s.warn(opt(t)),
      stop: () => s.stop(),
    };
  }
}
