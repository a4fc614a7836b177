import { Chalk, type ChalkInstance } from 'chalk';
import { stringifyJson } from '../util/json.js';
import { colorLevel, isClosed, type IO, type OutStream } from './io.js';
import { collect } from '../util/collect.js';
import { terminalSafe, terminalSafeStyled } from './terminal-text.js';
import { isTimestamp, relativeTime } from './time.js';

export interface OutputFlags {
  json: boolean;
  ndjson: boolean;
  /** errors as the JSON error document (default: with json or ndjson) */
  jsonErrors?: boolean | undefined;
  quiet: boolean;
  verbose: boolean;
  color: boolean;
}

export interface Column<T> {
  header: string;
  value: (item: T) => unknown;
  /**
   * The raw value for piped output, where `value` is display text (`ready_to_work (degraded)`,
   * `not built`): a script reading the tab-separated cell gets what the service sent.
   */
  raw?: ((item: T) => unknown) | undefined;
  /**
   * Never cut when a table is fitted to the window (a state, an id, a code): by default, a column
   * whose every cell is one short word is kept whole; free text is cut first.
   */
  keep?: boolean | undefined;
  /** a column of the piped rows only: on a terminal another column shows its value */
  pipedOnly?: boolean | undefined;
  /**
   * A column a table at a terminal may leave out, as gh does, when even cut it does not fit the
   * window: 1 first, then 2…; a note on stderr names what was left out. Without it, never.
   */
  drop?: number | undefined;
  /** at least this wide at a terminal: a table redrawn in place keeps its columns where they were */
  minWidth?: number | undefined;
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
  if (typeof value === 'object' && value.constructor !== Object && !Array.isArray(value))
    return terminalSafe(String(value));
  if (typeof value === 'object') return stringifyJson(value);
  return terminalSafe(String(value));
}

/**
 * A value as a script reads it from piped output: the service's value, not display text.
 * Booleans are `true`/`false`, null is empty, nested values are compact JSON. Tabs and
 * line breaks become spaces so that each row stays one line of tab-separated cells, and
 * control characters are escaped (`| cat` still ends at a terminal).
 */
export function plainText(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text: string;
  if (typeof value === 'object' && value.constructor !== Object && !Array.isArray(value)) text = String(value);
  else if (typeof value === 'object') text = stringifyJson(value);
  else text = String(value);
  return terminalSafe(text.replace(/[\t\n\r]/g, ' '));
}

/** Columns a string takes on a terminal (code points; wide glyphs are rare in service data). */
function widthOf(text: string): number {
  return [...text].length;
}

/** `text` cut to `width` columns, ending in an ellipsis when it was longer (like gh). */
export function truncate(text: string, width: number): string {
  const chars = [...text];
  if (chars.length <= width) return text;
  if (width <= 1) return '…'.slice(0, width);
  return `${chars.slice(0, width - 1).join('')}…`;
}

/**
 * Column widths that fit `available` terminal columns: the widest column that may be cut gives
 * up a column at a time, down to `minWidth`. Columns marked kept (states, ids, codes: the words
 * that matter) are never cut. Undefined when even that does not fit: the caller lays the rows
 * out one field per line instead.
 */
export function fitWidths(
  natural: number[],
  available: number,
  kept: boolean[] = [],
  minWidth = 5,
): number[] | undefined {
  const widths = [...natural];
  let total = widths.reduce((a, b) => a + b, 0);
  while (total > available) {
    let widest = -1;
    for (let i = 0; i < widths.length; i++) {
      if (!kept[i] && widths[i]! > minWidth && (widest < 0 || widths[i]! > widths[widest]!)) widest = i;
    }
    if (widest < 0) return undefined;
    widths[widest]!--;
    total--;
  }
  return widths;
}

/**
 * Widths that fit the window, leaving out the columns marked `drop` (1 first) one at a time
 * until they fit: the widths of the columns left, and the indexes of those left out. Undefined
 * when even without them the table does not fit.
 */
export function fitDropping(
  cols: ReadonlyArray<{ drop?: number | undefined }>,
  natural: number[],
  kept: boolean[],
  screen: number,
): { widths: number[]; left: number[] } | undefined {
  const order = cols
    .map((c, i) => ({ i, drop: c.drop }))
    .filter((c): c is { i: number; drop: number } => c.drop !== undefined)
    .sort((a, b) => a.drop - b.drop)
    .map((c) => c.i);
  for (let n = 0; n <= order.length; n++) {
    const left = order.slice(0, n);
    const stay = (_v: unknown, i: number) => !left.includes(i);
    const widths = fitWidths(
      natural.filter(stay),
      screen - COLUMN_GAP.length * (cols.length - left.length - 1),
      kept.filter(stay),
    );
    if (widths) return { widths, left: [...left].sort((a, b) => a - b) };
  }
  return undefined;
}

/** A cell that is one word of at most this many characters (an id, a state, a code, a date) is never cut. */
const TOKEN_WIDTH = 40;

/** Between two columns of a table at a terminal. */
const COLUMN_GAP = '  ';

/** cli-table3 drawing no line at all: columns apart by COLUMN_GAP only. */
const BORDERLESS = {
  top: '',
  'top-mid': '',
  'top-left': '',
  'top-right': '',
  bottom: '',
  'bottom-mid': '',
  'bottom-left': '',
  'bottom-right': '',
  left: '',
  'left-mid': '',
  mid: '',
  'mid-mid': '',
  right: '',
  'right-mid': '',
  middle: COLUMN_GAP,
};

/** The text of a styled string: its colour sequences removed. */
export function stripStyle(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u001b\[[0-9;]*m/g, '');
}

/** `text` broken into lines of at most `width` characters (at spaces where it can). */
export function wrapText(text: string, width: number): string[] {
  const lines: string[] = [];
  let rest = [...text];
  while (rest.length > width) {
    const head = rest.slice(0, width + 1);
    const space = head.lastIndexOf(' ');
    const cut = space > 0 ? space : width;
    lines.push(rest.slice(0, cut).join('').trimEnd());
    rest = rest.slice(space > 0 ? cut + 1 : cut);
  }
  lines.push(rest.join(''));
  return lines;
}

/**
 * A line of prose fitted to `width`: broken at spaces, never inside a word, each further line
 * indented as the first plus two spaces. A line that fits, or a width unknown, stays as it is.
 */
export function fitProse(line: string, width: number): string {
  if (!Number.isFinite(width) || widthOf(stripStyle(line)) <= width) return line;
  const indent = /^ */.exec(line)![0];
  const out: string[] = [];
  let current = '';
  for (const word of line.slice(indent.length).split(' ')) {
    const next = current === '' ? `${out.length === 0 ? indent : `${indent}  `}${word}` : `${current} ${word}`;
    if (current !== '' && widthOf(stripStyle(next)) > width) {
      out.push(current);
      current = `${indent}  ${word}`;
    } else current = next;
  }
  out.push(current);
  return out.join('\n');
}

/** Resolves once every write made so far to `stream` has reached it or failed. */
function written(stream: OutStream): Promise<void> | undefined {
  return isClosed(stream) ? undefined : new Promise<void>((resolve) => stream.write('', () => resolve()));
}

function plainRow<T>(columns: Array<Column<T>>, item: T): string {
  return columns.map((c) => plainText((c.raw ?? c.value)(item))).join('\t');
}

/**
 * The only writer to the terminal. Data goes to stdout; progress, warnings and prompts go
 * to stderr. Tables on a terminal, tab-separated raw values without a header when piped
 * (no box drawing, no display text, no colour), exact API objects with
 * --json / --ndjson. Everything written for a person (lines, notes, tables, spinners) has its
 * control characters escaped here (terminal-text.ts); `write`, `json` and `ndjson` are exact.
 */
export class Output {
  readonly out: ChalkInstance;
  readonly err: ChalkInstance;
  /**
   * Writes that never reached their reader: the stream was closed (a reader that stopped early,
   * `edp … | head`), or the write failed. A run that changed something and lost output does not
   * end in success (App.execute).
   */
  readonly lost = { stdout: 0, stderr: 0 };
  /** What is meant for stdout goes to stderr once stdout's reader is gone (a writing run keeps reporting). */
  private stdoutToStderr = false;
  /** Rows of the terminal written so far, on stdout and stderr where each is one: see `rowsDrawn`. */
  private rows = 0;

  /**
   * How many rows of the terminal the lines written so far take (each line as many rows as it
   * wraps to): a view redrawn in place (`recipes status --watch`) moves up by the rows it drew.
   */
  get rowsDrawn(): number {
    return this.rows;
  }

  private countRows(stream: NodeJS.WritableStream & { isTTY?: boolean; columns?: number }, text: string): void {
    if (!stream.isTTY) return;
    const columns = stream.columns && stream.columns > 0 ? stream.columns : 80;
    const lines = text.split('\n');
    for (const line of lines.slice(0, -1)) this.rows += Math.max(1, Math.ceil(widthOf(stripStyle(line)) / columns));
  }

  constructor(
    readonly io: IO,
    readonly flags: OutputFlags,
  ) {
    this.out = new Chalk({ level: colorLevel(io.stdout, io.env, flags) });
    this.err = new Chalk({ level: colorLevel(io.stderr, io.env, flags) });
  }

  /** The run's clock (IO.now), which relative times are measured on: a test pins it. */
  now(): number {
    return this.io.now ? this.io.now() : Date.now();
  }

  get machine(): boolean {
    return this.flags.json || this.flags.ndjson;
  }

  get stdoutIsTTY(): boolean {
    return !!this.io.stdout.isTTY;
  }

  /**
   * From now on, text for a person that stdout can no longer take is written to stderr instead
   * (machine output is not: stderr carries at most the error document then).
   */
  keepReportingOnStderr(): void {
    this.stdoutToStderr = true;
  }

  /** Writes lost so far, on both streams. */
  get lostWrites(): number {
    return this.lost.stdout + this.lost.stderr;
  }

  /** Resolves once every write made so far has reached its stream or failed (and been counted). */
  async settled(): Promise<void> {
    await Promise.all([written(this.io.stdout), written(this.io.stderr)]);
  }

  /**
   * Whether no output of the run so far was lost, once every write has settled: none failed and
   * no stream was closed (`also`: streams written outside Output, such as the --jq result on the
   * real stdout). A write a pipe's buffer took counts as written: whether its reader reads it, a
   * pipe never tells (io.ts, keepsWrites).
   */
  async intact(...also: OutStream[]): Promise<boolean> {
    const streams = [this.io.stdout, this.io.stderr, ...also];
    await Promise.all(streams.map(written));
    return this.lostWrites === 0 && !streams.some(isClosed);
  }

  private toStdout(text: string): void {
    const stream = this.io.stdout;
    if (isClosed(stream)) {
      if (this.stdoutToStderr && !this.machine && !isClosed(this.io.stderr)) this.toStderr(text);
      else this.lost.stdout++;
      return;
    }
    this.countRows(stream, text);
    stream.write(text, (err) => {
      if (err) this.lost.stdout++;
    });
  }

  private writeStderr(text: string): void {
    const stream = this.io.stderr;
    if (isClosed(stream)) {
      this.lost.stderr++;
      return;
    }
    this.countRows(stream, text);
    stream.write(text, (err) => {
      if (err) this.lost.stderr++;
    });
  }

  /** Exact bytes: machine output such as a raw response body. */
  write(text: string): void {
    this.toStdout(text);
  }

  /** A line for a person on stdout. */
  line(text = ''): void {
    this.toStdout(`${this.forOut(text)}\n`);
  }

  /**
   * A line of prose for a person (an explanation, a finding): at a terminal, fitted to the
   * window at spaces (fitProse), so no word is cut by the terminal's own wrapping. Never a
   * command to paste: a command broken over lines is pasted broken.
   */
  prose(text: string, to: 'stdout' | 'stderr' = 'stdout'): void {
    const stream = to === 'stdout' ? this.io.stdout : this.io.stderr;
    const columns = stream.isTTY && (stream.columns ?? 0) > 0 ? stream.columns! : Infinity;
    const fitted = fitProse(text, columns);
    if (to === 'stdout') this.line(fitted);
    else this.info(fitted);
  }

  /** Text for a person: service text cannot drive the terminal; this tool's colours stay. */
  private forOut(text: string): string {
    return terminalSafeStyled(text, this.out.level > 0);
  }

  private forErr(text: string): string {
    return terminalSafeStyled(text, this.err.level > 0);
  }

  /** One JSON document; with --ndjson one line, as every value --ndjson prints is. */
  json(value: unknown): void {
    this.toStdout(`${stringifyJson(value, this.flags.ndjson ? undefined : 2)}\n`);
  }

  ndjson(value: unknown): void {
    this.toStdout(`${stringifyJson(value)}\n`);
  }

  /** Progress and notes for a person, on stderr; silent with --quiet. */
  info(text: string): void {
    if (!this.flags.quiet) this.toStderr(`${this.forErr(text)}\n`);
  }

  warn(text: string): void {
    this.toStderr(`${this.err.yellow('!')} ${this.forErr(text)}\n`);
  }

  success(text: string): void {
    if (!this.flags.quiet) this.toStderr(`${this.err.green('✓')} ${this.forErr(text)}\n`);
  }

  debug(text: string): void {
    if (this.flags.verbose) this.toStderr(`${this.err.dim(this.forErr(text))}\n`);
  }

  /** Spinners drawing on the terminal now; a note is written above them, not into their line. */
  private readonly spinning = new Set<{ clear(): unknown; render(): unknown }>();

  private toStderr(text: string): void {
    for (const s of this.spinning) s.clear();
    this.writeStderr(text);
    for (const s of this.spinning) s.render();
  }

  /** An error for a person on stderr: the label in colour, the text (which may quote the service) made safe. */
  error(label: string, lines: string[]): void {
    const [first = '', ...rest] = lines;
    this.toStderr(`${this.err.red(label)} ${terminalSafe(first)}\n`);
    for (const line of rest) this.toStderr(`${terminalSafe(line)}\n`);
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
          this.toStdout(pending);
          pending = '';
        }
      },
      flush: () => {
        if (pending) this.toStdout(pending);
        pending = '';
      },
    };
  }

  /**
   * A single object: JSON as the service sent it, key/value lines for a person on a terminal
   * (`fields` picks and labels them), and when piped one `field<TAB>value` line per field of
   * the object itself, raw values, nested ones as compact JSON.
   */
  async object(value: unknown, fields?: Array<[string, unknown]>): Promise<void> {
    if (this.machine) return this.json(value);
    if (!this.stdoutIsTTY) return this.plainObject(value);
    // Every detail view labels alike: lowercase words (`event types` for event_types), and a
    // list of plain values reads as one (`a, b`), not as JSON.
    const rows =
      fields ??
      Object.entries((value ?? {}) as Record<string, unknown>).map(
        ([k, v]) => [k.replace(/_/g, ' '), v] as [string, unknown],
      );
    this.details(
      rows.map(([k, v]) => [
        terminalSafe(k),
        Array.isArray(v) && v.every((x) => x === null || typeof x !== 'object')
          ? v.map(cellText).join(', ')
          : cellText(v),
      ]),
    );
  }

  /**
   * `label  value` lines for a person at a terminal, labels in bold, each value wrapped to the
   * window under itself (a label too wide for the window puts its value on the next lines).
   * A value may carry this tool's colours; one that must be wrapped loses them. A time reads
   * "5 minutes ago", as in tables (exact piped and in --json).
   */
  details(pairs: Array<[string, string]>): void {
    const width = Math.max(0, ...pairs.map(([k]) => widthOf(k)));
    const screen = (this.io.stdout.columns ?? 0) > 0 ? this.io.stdout.columns! : Infinity;
    const room = screen - width - 2;
    const lines: string[] = [];
    const now = this.now();
    for (const [k, given] of pairs) {
      const v = isTimestamp(given) ? relativeTime(given, now) : given;
      const label = this.out.bold(k.padEnd(width));
      const text = stripStyle(v);
      if (widthOf(text) <= room && !text.includes('\n')) {
        lines.push(`${label}  ${v}`);
        continue;
      }
      const paragraphs = text.split('\n');
      if (room < 20) {
        lines.push(label.trimEnd());
        for (const p of paragraphs) for (const l of wrapText(p, Math.max(1, screen - 2))) lines.push(`  ${l}`);
        continue;
      }
      paragraphs
        .flatMap((p) => wrapText(p, room))
        .forEach((l, i) => lines.push(`${i === 0 ? label : ' '.repeat(width)}  ${l}`.trimEnd()));
    }
    this.line(lines.join('\n'));
  }

  /** Piped detail view: `field<TAB>value` lines of the object's own fields, raw values. */
  plainObject(value: unknown): void {
    const entries = value !== null && typeof value === 'object' ? Object.entries(value as Record<string, unknown>) : [];
    const out = this.buffered();
    for (const [k, v] of entries) out.write(`${plainText(k)}\t${plainText(v)}\n`);
    out.flush();
  }

  /**
   * A list: --json one array (streamed), --ndjson one item per line (streamed, constant
   * memory), a table on a terminal, tab-separated rows without a header when piped.
   */
  async list<T>(
    items: AsyncIterable<T> | Iterable<T>,
    columns: Array<Column<T>>,
    opts: { empty?: string } = {},
  ): Promise<number> {
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
          out.write(`${plainRow(columns, item)}\n`);
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

  /**
   * A table on a terminal, drawn as gh draws one: no borders, a bold header, columns two spaces
   * apart, fitted to the window (`stdout.columns`): free text is cut first, with an ellipsis;
   * ids, states and codes never are; columns with no value in any row are left out; times read
   * "5 minutes ago". Colour only styles a cell: the text is the same with and without it, and
   * widths are measured on that text. Piped: tab-separated raw rows, no header.
   */
  async table<T>(columns: Array<Column<T>>, rows: T[]): Promise<void> {
    if (!this.stdoutIsTTY) {
      const out = this.buffered();
      for (const row of rows) out.write(`${plainRow(columns, row)}\n`);
      out.flush();
      return;
    }
    const now = this.now();
    const values = rows.map((row) => columns.map((c) => (c.pipedOnly ? '' : c.value(row))));
    const timeColumn = columns.map(
      (_c, i) =>
        values.some((r) => isTimestamp(r[i])) && values.every((r) => isTimestamp(r[i]) || cellText(r[i]) === ''),
    );
    const allCells = values.map((r) =>
      r.map((v, i) => (timeColumn[i] && isTimestamp(v) ? relativeTime(v, now) : cellText(v).replace(/[\t\n]/g, ' '))),
    );
    // Columns of the piped rows only, and columns empty in every row, are not drawn.
    const shown = columns.map((c, i) => !c.pipedOnly && allCells.some((r) => r[i] !== ''));
    const pick = <V>(list: V[]) => list.filter((_v, i) => shown[i]);
    const cols = pick(columns);
    if (cols.length === 0) return;
    const headers = cols.map((c) => terminalSafe(c.header));
    const cells = allCells.map(pick);
    const times = pick(timeColumn);
    const natural = cols.map((c, i) =>
      Math.max(c.minWidth ?? 0, widthOf(headers[i]!), ...cells.map((r) => widthOf(r[i]!))),
    );
    const kept = cols.map(
      (c, i) => c.keep ?? (times[i] || cells.every((r) => !/\s/.test(r[i]!) && widthOf(r[i]!) <= TOKEN_WIDTH)),
    );
    const screen = (this.io.stdout.columns ?? 0) > 0 ? this.io.stdout.columns! : Infinity;
    const fitted = fitDropping(cols, natural, kept, screen);
    if (!fitted) return this.fieldLines(cols, rows, headers, cells, screen);
    if (fitted.left.length > 0) {
      const names = fitted.left.map((i) => headers[i]!).join(', ');
      this.info(`left out to fit the window: ${names} (a wider window or --json shows them)`);
      const keep = (_v: unknown, i: number) => !fitted.left.includes(i);
      return this.drawTable(
        cols.filter(keep),
        rows,
        headers.filter(keep),
        cells.map((r) => r.filter(keep)),
        fitted.widths,
      );
    }
    return this.drawTable(cols, rows, headers, cells, fitted.widths);
  }

  /** The table drawn with the widths fitted to the window. */
  private async drawTable<T>(
    cols: Array<Column<T>>,
    rows: T[],
    headers: string[],
    cells: string[][],
    widths: number[],
  ): Promise<void> {
    const { default: Table } = await import('cli-table3');
    const table = new Table({
      head: headers.map((h, i) => this.out.bold(truncate(h, widths[i]!))),
      colWidths: widths,
      wordWrap: false,
      style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0 },
      chars: BORDERLESS,
    });
    rows.forEach((row, r) => {
      table.push(cells[r]!.map((text, i) => this.styled(cols[i]!, truncate(text, widths[i]!), row)));
    });
    // The last column is padded to its width like the others: no line ends in spaces.
    this.line(
      table
        .toString()
        .split('\n')
        .map((l) => l.trimEnd())
        .join('\n'),
    );
  }

  /**
   * A cell in its column's colour. Colour only ever styles: a style that would change the text
   * (add a word, drop one) is not applied, so that what a person reads is the same with colour
   * and without (NO_COLOR), and widths hold.
   */
  private styled<T>(column: Column<T>, text: string, row: T): string {
    if (!column.style || this.out.level === 0) return text;
    const styled = column.style(text, row, this.out);
    return stripStyle(styled) === text ? styled : text;
  }

  /**
   * Rows too wide for the window even with every free-text column cut: one `FIELD  value` line
   * per field, values wrapped to the window, a blank line between rows (gh's narrow layout).
   */
  private fieldLines<T>(
    columns: Array<Column<T>>,
    rows: T[],
    headers: string[],
    cells: string[][],
    screen: number,
  ): void {
    const label = Math.max(...headers.map(widthOf)) + 2;
    const width = Math.max(1, screen - label);
    const lines: string[] = [];
    rows.forEach((row, r) => {
      if (r > 0) lines.push('');
      columns.forEach((c, i) => {
        const cell = cells[r]![i]!;
        // One word (an id, a code) too wide beside the label goes whole on the next line.
        if (label < screen && !/\s/.test(cell) && widthOf(cell) > width && widthOf(cell) <= screen - 2) {
          lines.push(
            this.out.bold(headers[i]!),
            `  ${c.style && this.out.level > 0 ? c.style(cell, row, this.out) : cell}`,
          );
          return;
        }
        const wrapped = label >= screen ? wrapText(`${headers[i]!} ${cell}`, screen) : wrapText(cell, width);
        wrapped.forEach((text, k) => {
          const styled = c.style && this.out.level > 0 ? c.style(text, row, this.out) : text;
          if (label >= screen) lines.push(k === 0 ? this.out.bold(text) : text);
          else lines.push(`${k === 0 ? this.out.bold(headers[i]!.padEnd(label)) : ' '.repeat(label)}${styled}`);
        });
      });
    });
    this.line(lines.join('\n'));
  }

  /** A spinner on a terminal; a plain line at the end otherwise. Always on stderr. */
  async spinner(text: string): Promise<Spinner> {
    const quiet = this.flags.quiet;
    const safe = (t: string) => this.forErr(t);
    // A terminal that reports no width (0 columns: some pseudo-terminals, editors' shells) cannot be
    // redrawn in place: ora would count infinitely many lines to clear. It gets the plain lines.
    if (!this.io.stderr.isTTY || quiet || !(this.io.stderr as { columns?: number }).columns) {
      let current = text;
      const end = (mark: string, t?: string) => {
        if (!quiet) this.writeStderr(`${mark} ${safe(t ?? current)}\n`);
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
    const s = ora({
      text: safe(text),
      stream: this.io.stderr,
      color: this.err.level > 0 ? 'cyan' : false,
      isEnabled: true,
      discardStdin: false,
    }).start();
    this.spinning.add(s);
    const opt = (t?: string) => (t === undefined ? undefined : safe(t));
    const done = () => this.spinning.delete(s);
    return {
      update: (t) => {
        s.text = safe(t);
      },
      succeed: (t) => (done(), s.succeed(opt(t)), undefined),
      fail: (t) => (done(), s.fail(opt(t)), undefined),
      warn: (t) => (done(), s.warn(opt(t)), undefined),
      stop: () => (done(), s.stop(), undefined),
    };
  }
}
