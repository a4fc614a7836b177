import type { Argument, CommandUnknownOpts as Command, Help, Option } from '@commander-js/extra-typings';
import type { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import { buildProgram } from '../../src/cli.js';
import { App } from '../../src/commands/shared/app.js';
import { readByText } from '../../src/commands/shared/environment-help.js';
import { commandEnvironment, commonEnvironment, ENVIRONMENT } from '../../src/config/environment.js';
import { EXIT_CODES } from '../../src/errors.js';

/**
 * The manual, generated from the command tree: a Markdown page per command
 * (`docs/commands/edp-recipes-deploy.md`) and a man page per command (`man/edp-recipes-deploy.1`),
 * by path. Everything on a page comes from the tree: descriptions, arguments, options, the
 * text added after a command's help (examples, notes) and the exit codes. Hidden commands and
 * `help` are left out.
 */
export function manual(program: Command): Map<string, string> {
  const pages = commands(program).map((cmd) => page(cmd, program));
  const files = new Map<string, string>();
  for (const p of pages) files.set(`docs/commands/${p.file}.md`, markdown(p, pages));
  for (const p of pages) files.set(`man/${p.file}.1`, roff(p, pages));
  return files;
}

/**
 * The manual of the whole command tree, every command registered, as a run with an empty
 * environment and no terminal sees it: what `npm run manual` writes and checks.
 */
export async function manualFiles(): Promise<Map<string, string>> {
  const io = { stdin: new PassThrough(), stdout: new PassThrough(), stderr: new PassThrough(), env: {} };
  return manual(await buildProgram(new App(io), [], true));
}

/**
 * The release the man pages describe, on each page's `.TH` line: the version and the date it was
 * set. Kept here, not taken from the clock or git, so that generating the pages again changes
 * nothing; test/commands/manual.test.ts fails when package.json's version is another.
 */
export const MANUAL_RELEASE = { version: '0.1.0', date: '2026-11-21' };

/** The man pages' paths as package.json's `man` lists them. */
export function manPaths(files: Map<string, string>): string[] {
  return [...files.keys()].filter((f) => f.startsWith('man/')).map((f) => `./${f}`);
}

/** Where the global options and exit codes are described, in Markdown. */
const GLOBAL_OPTIONS_LINK = 'edp.md#global-options';
const EXIT_CODES_LINK = 'edp.md#exit-codes';

/** Wide enough that no paragraph of the help text is broken across lines. */
const UNWRAPPED = 100_000;
/** The width examples are shown at, as `--help` shows them off a terminal. */
const EXAMPLES_WIDTH = 80;
/** The width of examples in a man page, which `man` indents by 7 columns on an 80-column terminal. */
const MAN_EXAMPLES_WIDTH = 72;

interface Term {
  term: string;
  description: string;
}

/** A block of the text after a command's help: a paragraph, or a titled list of terms. */
type Note = { paragraph: string } | { title: string; items: Term[] };

interface Page {
  cmd: Command;
  /** e.g. `['edp', 'recipes', 'deploy']` */
  words: string[];
  /** e.g. `edp-recipes-deploy` */
  file: string;
  summary: string;
  usage: string;
  arguments: Term[];
  /** the command's own options, by heading */
  options: Map<string, Term[]>;
  /** the options every command takes (on the program: declared there) */
  globalOptions: Term[];
  notes: Note[];
  /** example lines as shown at 80 columns (`manLines`: in a man page), and the note after them */
  examples: { lines: string[]; manLines: string[]; note: string[] } | undefined;
  /** the environment variables the command reads besides those every command reads (all of them on the program's page) */
  environment: Term[];
}

function isHidden(cmd: Command): boolean {
  return (cmd as unknown as { _hidden?: boolean })._hidden === true;
}

/** The program and every command below it, parents first, in the order they are declared. */
function commands(cmd: Command): Command[] {
  const shown = cmd.commands.filter((c) => !isHidden(c) && c.name() !== 'help');
  return [cmd, ...shown.flatMap(commands)];
}

function wordsOf(cmd: Command): string[] {
  const words: string[] = [];
  for (let c: Command | null = cmd; c; c = c.parent) words.unshift(c.name());
  return words;
}

function page(cmd: Command, program: Command): Page {
  const helper = cmd.createHelp();
  const words = wordsOf(cmd);
  const isProgram = cmd === program;
  const own = helper.visibleOptions(cmd);
  // As the help lays it out: below the program, `--help` is with the options every command takes.
  const help = isProgram ? [] : own.filter((o) => o.long === '--help');
  // The program's options but `--version` and `--help` are those every command takes.
  const global = isProgram ? own.filter((o) => o.long !== '--help' && o.long !== '--version') : [];
  const options = new Map<string, Term[]>();
  for (const o of own.filter((o) => !help.includes(o) && !global.includes(o))) {
    const heading = o.helpGroupHeading?.replace(/:$/, '') ?? 'Options';
    options.set(heading, [...(options.get(heading) ?? []), optionTerm(o, helper)]);
  }
  const after = isProgram ? [] : afterHelp(cmd);
  const exampleText = after.find((t) => t.at80.startsWith(EXAMPLES));
  return {
    cmd,
    words,
    file: words.join('-'),
    summary: cmd.description(),
    usage: helper.commandUsage(cmd),
    arguments: helper.visibleArguments(cmd).map((a: Argument) => ({
      term: helper.argumentTerm(a),
      description: helper.argumentDescription(a),
    })),
    options,
    globalOptions: (isProgram ? global : [...helper.visibleGlobalOptions(cmd), ...help]).map((o) =>
      optionTerm(o, helper),
    ),
    notes: after.filter((t) => t !== exampleText).flatMap((t) => notes(t.unwrapped)),
    examples: exampleText && examplesOf(exampleText),
    environment: (isProgram
      ? ENVIRONMENT
      : commandEnvironment(
          words.slice(1).join(' '),
          own.map((o) => o.long ?? ''),
        )
    ).map((v) => ({ term: v.name, description: `${v.text}${isProgram ? readByText(v) : ''}` })),
  };
}

function optionTerm(o: Option, helper: Help): Term {
  return { term: helper.optionTerm(o), description: helper.optionDescription(o) };
}

/**
 * Each text added after `cmd`'s help (`addHelpText('after', …)`), rendered at 80 columns and
 * with no line broken. The command it is given stands for `cmd` shown at that width.
 */
function afterHelp(cmd: Command): AfterHelp[] {
  const render = (width: number) => {
    const texts: string[] = [];
    const command = Object.create(cmd, {
      configureOutput: { value: () => ({ ...cmd.configureOutput(), getOutHelpWidth: () => width }) },
    }) as Command;
    // What `outputHelp()` does after the help: each text added after it is written by a listener.
    (cmd as unknown as EventEmitter).emit('afterHelp', { error: false, command, write: (s: string) => texts.push(s) });
    return texts;
  };
  const unwrapped = render(UNWRAPPED);
  const forMan = render(MAN_EXAMPLES_WIDTH);
  return render(EXAMPLES_WIDTH).map((at80, i) => ({ at80, forMan: forMan[i] ?? '', unwrapped: unwrapped[i] ?? '' }));
}

/** A text added after a command's help at the widths the manual shows it at. */
interface AfterHelp {
  at80: string;
  forMan: string;
  unwrapped: string;
}

/** How the examples' text starts (`examples()` in help.ts). */
const EXAMPLES = '\nExamples:\n';

/** Blocks separated by blank lines, without their trailing line breaks. */
function blocks(text: string): string[][] {
  return text
    .trim()
    .split(/\n\s*\n/)
    .map((b) => b.split('\n'))
    .filter((b) => b.some((l) => l.trim()));
}

/** Paragraphs (one line each, unwrapped) and titled lists laid out as `  term  description`. */
function notes(text: string): Note[] {
  return blocks(text).flatMap((lines): Note[] => {
    const [first = '', ...rest] = lines;
    if (rest.length > 0 && !first.startsWith(' ') && rest.every((l) => l.startsWith('  ')))
      return [
        {
          title: first,
          items: rest.map((l) => {
            const m = /^ {2}(\S.*?)(?: {2,}(.*))?$/.exec(l);
            return { term: m?.[1] ?? l.trim(), description: m?.[2]?.trim() ?? '' };
          }),
        },
      ];
    return lines.map((l) => ({ paragraph: l.trim() }));
  });
}

/** The example lines of an `Examples:` text (at 80 columns), and the note after them (unwrapped). */
function examplesOf(text: AfterHelp): Page['examples'] {
  const lines = (at: string) => (blocks(at.slice(EXAMPLES.length))[0] ?? []).map((l) => l.replace(/^ {2}/, ''));
  const [, ...note] = blocks(text.unwrapped.slice(EXAMPLES.length));
  return { lines: lines(text.at80), manLines: lines(text.forMan), note: note.flat().map((l) => l.trim()) };
}

/** The first letter in upper case, and a full stop at the end: a one-line description as a sentence. */
function sentence(text: string): string {
  const s = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?:]$/.test(s) ? s : `${s}.`;
}

function parentOf(p: Page, pages: Page[]): Page | undefined {
  return pages.find((q) => q.cmd === p.cmd.parent);
}

/** Pages to see from `p`: its parent, and, for a verb of a group, the group's other verbs. */
function seeAlso(p: Page, pages: Page[]): Page[] {
  const parent = parentOf(p, pages);
  if (!parent) return [];
  const siblings = parent.cmd.parent ? pages.filter((q) => q.cmd.parent === parent.cmd && q !== p) : [];
  return [parent, ...siblings];
}

// Markdown

/**
 * A web address or an e-mail address in running text, which Markdown renderers would link on their
 * own (GitHub does, CommonMark does not): written as an autolink (`<http://…>`), so that every
 * renderer links it and markdownlint finds no bare URL. Trailing punctuation stays outside.
 */
const AUTOLINK =
  /(https?:\/\/[A-Za-z0-9][^\s<>"'`)\]]*[^\s<>"'`)\].,;:!?]|[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,})/;

/** Text for Markdown: characters that would start markup are escaped, code spans kept as they are, addresses linked. */
function md(text: string): string {
  return text
    .split(/(`[^`]*`)/)
    .map((part, i) =>
      i % 2 === 1
        ? part
        : part
            .split(new RegExp(AUTOLINK.source, 'g'))
            .map((text, j) => (j % 2 === 1 ? `<${text}>` : escapeMarkdown(text)))
            .join(''),
    )
    .join('');
}

function escapeMarkdown(text: string): string {
  return text
    .replace(/([\\*[\]<>])/g, '\\$1')
    .replace(/(^|[^A-Za-z0-9])_/g, '$1\\_')
    .replace(/_(?=$|[^A-Za-z0-9])/g, '\\_');
}

/** A code span holding `text`, with fences long enough for the backticks inside it. */
function code(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((r) => r.length));
  const fence = '`'.repeat(longest + 1);
  return longest > 0 ? `${fence} ${text} ${fence}` : `${fence}${text}${fence}`;
}

function mdTerms(items: Term[]): string[] {
  return items.map((i) => `- ${code(i.term)}${i.description ? `: ${md(i.description)}` : ''}`);
}

function mdNotes(notes: Note[]): string[] {
  return notes.flatMap((n) => ('paragraph' in n ? [md(n.paragraph), ''] : [md(n.title), '', ...mdTerms(n.items), '']));
}

function link(p: Page): string {
  return `[${p.words.join(' ')}](${p.file}.md)`;
}

function markdown(p: Page, pages: Page[]): string {
  const isProgram = !p.cmd.parent;
  const out = [
    `# ${p.words.join(' ')}`,
    '',
    md(sentence(p.summary)),
    '',
    '## Usage',
    '',
    '```text',
    p.usage,
    '```',
    '',
  ];
  if (p.arguments.length > 0) out.push('## Arguments', '', ...mdTerms(p.arguments), '');
  const children = pages.filter((q) => q.cmd.parent === p.cmd);
  if (children.length > 0) {
    const list = (parent: Command, depth: number): string[] =>
      pages
        .filter((q) => q.cmd.parent === parent)
        .flatMap((q) => [
          `${'  '.repeat(depth)}- ${link(q)}: ${md(q.summary)}`,
          ...(isProgram ? list(q.cmd, depth + 1) : []),
        ]);
    out.push('## Commands', '', ...list(p.cmd, 0), '');
  }
  out.push(...mdNotes(p.notes));
  for (const [heading, items] of p.options) out.push(`## ${heading}`, '', ...mdTerms(items), '');
  if (isProgram)
    out.push('## Global options', '', 'Every command takes these options.', '', ...mdTerms(p.globalOptions), '');
  else if (p.globalOptions.length > 0) {
    const terms = p.globalOptions.map((t) => code(t.term)).join(', ');
    out.push('## Global options', '', `See the [global options](${GLOBAL_OPTIONS_LINK}): ${terms}.`, '');
  }
  if (p.examples) {
    out.push('## Examples', '', '```sh', ...p.examples.lines, '```', '');
    for (const n of p.examples.note) out.push(md(n), '');
  }
  out.push('## Environment', '', ...mdTerms(p.environment));
  if (!isProgram) out.push(...(p.environment.length > 0 ? [''] : []), commonEnvironmentText('markdown'), '');
  else out.push('');
  if (isProgram) {
    out.push('## Exit codes', '', ...EXIT_CODES.map((e) => `- ${code(String(e.code))}: ${md(e.long)}`), '');
  } else out.push('## Exit codes', '', `See the [exit codes](${EXIT_CODES_LINK}).`, '');
  const also = seeAlso(p, pages);
  if (also.length > 0) out.push('## See also', '', ...also.map((q) => `- ${link(q)}`), '');
  return `${out.join('\n').trimEnd()}\n`;
}

// roff

/**
 * Text for roff: backslashes, hyphens (as `\-`, so that options copy as typed) and characters
 * outside ASCII escaped, and a line that would start with a control character made text.
 */
function esc(text: string): string {
  const escaped = text
    .replace(/\\/g, '\\e')
    .replace(/-/g, '\\-')
    .replace(/[^\x20-\x7e]/gu, (c) => `\\[u${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}]`);
  return escaped.replace(/^([.'])/gm, '\\&$1');
}

/** An option or argument term: its names in bold, its value in italics. */
function roffTerm(term: string): string {
  return term
    .split(/( +)/)
    .map((w) => (/^ +$/.test(w) ? w : /^[<[]/.test(w) ? `\\fI${esc(w)}\\fR` : `\\fB${esc(w)}\\fR`))
    .join('');
}

function roffTerms(items: Term[]): string[] {
  return items.flatMap((i) => ['.TP', roffTerm(i.term), ...(i.description ? [esc(i.description)] : [])]);
}

function roff(p: Page, pages: Page[]): string {
  const isProgram = !p.cmd.parent;
  const title = esc(p.file.toUpperCase());
  const out = [
    `.TH "${title}" "1" "${MANUAL_RELEASE.date}" "edp ${esc(MANUAL_RELEASE.version)}" "edp manual"`,
    // Option names and commands are not broken across lines, and lines are not stretched to the margin.
    '.nh',
    '.ad l',
    '.SH NAME',
    `${esc(p.file)} \\- ${esc(p.summary)}`,
    '.SH SYNOPSIS',
    `\\fB${esc(p.words.join(' '))}\\fR ${esc(p.usage.slice(p.words.join(' ').length).trim())}`,
    '.SH DESCRIPTION',
    esc(sentence(p.summary)),
  ];
  for (const n of p.notes) {
    if ('paragraph' in n) out.push('.PP', esc(n.paragraph));
    else out.push('.PP', esc(n.title), ...roffTerms(n.items));
  }
  const children = pages.filter((q) => q.cmd.parent === p.cmd);
  if (children.length > 0)
    out.push('.SH COMMANDS', ...children.flatMap((q) => ['.TP', `${manRef(q)}`, esc(q.summary)]));
  if (p.arguments.length > 0) out.push('.SH ARGUMENTS', ...roffTerms(p.arguments));
  for (const [heading, items] of p.options) out.push(`.SH ${esc(heading.toUpperCase())}`, ...roffTerms(items));
  if (p.globalOptions.length > 0)
    out.push(
      '.SH GLOBAL OPTIONS',
      ...(isProgram ? ['Every command takes these options.'] : []),
      ...roffTerms(p.globalOptions),
    );
  if (p.examples) {
    out.push('.SH EXAMPLES', '.PP', '.nf', ...p.examples.manLines.map(esc), '.fi');
    for (const n of p.examples.note) out.push('.PP', esc(n));
  }
  out.push('.SH ENVIRONMENT', ...roffTerms(p.environment));
  if (!isProgram) out.push('.PP', commonEnvironmentText('roff'));
  if (isProgram)
    out.push(
      '.SH EXIT STATUS',
      ...roffTerms(EXIT_CODES.map((e) => ({ term: String(e.code), description: e.long }))).map((l) =>
        // The codes are values, not option names: in roman type.
        l.startsWith('\\fB') ? l.replace(/^\\fB(.*)\\fR$/, '$1') : l,
      ),
    );
  else out.push('.SH EXIT STATUS', 'See \\fBedp\\fR(1).');
  const also = seeAlso(p, pages);
  if (also.length > 0) out.push('.SH SEE ALSO', also.map(manRef).join(', '));
  // A paragraph macro right after a section heading is one the heading already starts.
  return `${out.filter((line, i) => !(line === '.PP' && out[i - 1]?.startsWith('.SH '))).join('\n')}\n`;
}

/** The sentence a command's page gives the variables every command reads, which the program's page describes. */
function commonEnvironmentText(format: 'markdown' | 'roff'): string {
  const names = commonEnvironment().map((v) => v.name);
  return format === 'markdown'
    ? `Like every command, it reads ${names.map(code).join(', ')}: see [the environment](edp.md#environment) or \`edp help environment\`.`
    : `Like every command, it reads ${esc(names.join(', '))}: see \\fBedp\\fR(1) or \\fBedp help environment\\fR.`;
}

/** A reference to a command's man page: `edp-recipes(1)`. */
function manRef(p: Page): string {
  return `\\fB${esc(p.file)}\\fR(1)`;
}
