import {
  Command,
  type AddHelpTextContext,
  type CommandUnknownOpts,
  type Help,
  type HelpConfiguration,
  type Option,
} from '@commander-js/extra-typings';

/**
 * The width help is wrapped at: the terminal's, and 80 columns off a terminal, so that piped
 * help never varies (the build renders `edp --help` to a pipe into dist/help.txt).
 */
export function terminalWidth(stream: { isTTY?: boolean; columns?: number }): number {
  return stream.isTTY && stream.columns ? stream.columns : 80;
}

/** The width `cmd`'s help is shown at (on stderr with `error`). */
export function helpWidth(cmd: CommandUnknownOpts, error = false): number {
  const output = cmd.configureOutput();
  return (error ? output.getErrHelpWidth?.() : output.getOutHelpWidth?.()) ?? 80;
}

/**
 * `text` in lines of at most `width` columns, broken at spaces; a word longer than the width
 * keeps a line of its own, and a line break in the text starts a new line.
 */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const source of text.split('\n')) {
    let line = '';
    for (const word of source.split(' ').filter(Boolean)) {
      if (line && line.length + 1 + word.length > width) {
        lines.push(line);
        line = word;
      } else line = line ? `${line} ${word}` : word;
    }
    lines.push(line);
  }
  return lines;
}

/**
 * Text shown after a command's help (`addHelpText('after', …)`), rendered at the width the help
 * is shown at. Joined to a string, it renders at 80 columns.
 */
export type HelpText = (context: AddHelpTextContext) => string;

function helpText(render: (width: number) => string): HelpText {
  const text: HelpText = ({ command, error }) => render(helpWidth(command, error));
  text.toString = () => render(80);
  return text;
}

/** Paragraphs after a command's options, each written as one line and wrapped at the help's width. */
export function paragraphs(...texts: string[]): HelpText {
  return helpText((width) => texts.map((t) => `\n${wrap(t, width).join('\n')}`).join('\n'));
}

/** A titled list of terms and their descriptions after a command's options, laid out as the options are. */
export function definitions(title: string, items: Array<[term: string, description: string]>): HelpText {
  const termWidth = Math.max(...items.map(([term]) => term.length));
  return helpText((width) =>
    ['', ...wrap(title, width), ...items.map(([term, text]) => formatItem(term, termWidth, text, width))].join('\n'),
  );
}

/**
 * The examples section of a verb's help, under one label everywhere. `lines` are command
 * lines as a person types them, each one line in the source, with an optional `# comment`
 * after it; `note` is a paragraph printed after them. A command line wider than the help is
 * continued on the lines below with `\`, its comment above it.
 */
export function examples(lines: string[], note?: string): HelpText {
  return helpText((width) => {
    // When one line's comment has to go above it, every comment of the section does.
    const above = lines.some((l) => l.length + 2 > width && COMMENT.test(l));
    const shown = lines.flatMap((l) => exampleLines(l, width, above));
    return `\nExamples:\n${shown.join('\n')}${note ? `\n\n${wrap(note, width).join('\n')}` : ''}`;
  });
}

/** Shell words, a quoted string being part of one: `--title "Paid media"` is two. */
const SHELL_WORD = /(?:[^\s"']+|"[^"]*"|'[^']*')+/g;

/** A command line and the comment after it. */
const COMMENT = /^(.*?\S)\s+# (.*)$/;

/**
 * An example command line in lines of at most `width` columns (a word wider than that keeps a
 * line of its own); its comment above it with `commentAbove`, or when the line is too wide.
 */
function exampleLines(line: string, width: number, commentAbove: boolean): string[] {
  const comment = COMMENT.exec(line);
  if (line.length + 2 <= width && !(comment && commentAbove)) return [`  ${line}`];
  const command = comment ? comment[1]! : line;
  const shown = comment ? wrap(comment[2]!, width - 4).map((l) => `  # ${l}`) : [];
  if (command.length + 2 <= width) return [...shown, `  ${command}`];
  // A flag stays on the line of its value where a line can hold both.
  const words: string[] = [];
  for (const word of command.match(SHELL_WORD) ?? []) {
    const flag = words.at(-1);
    if (flag && /^-\S*$/.test(flag) && !/^[-|&;<>]/.test(word) && flag.length + 1 + word.length <= width - 8)
      words[words.length - 1] = `${flag} ${word}`;
    else words.push(word);
  }
  // The line being filled, from column 2; the lines continuing it start at column 6, and each
  // line but the last ends with ` \`.
  let current = `  ${words[0] ?? ''}`;
  for (const [i, word] of words.slice(1).entries()) {
    const room = width - (i === words.length - 2 ? 0 : 2);
    if (current.length + 1 + word.length > room) {
      shown.push(`${current} \\`);
      current = `      ${word}`;
    } else current = `${current} ${word}`;
  }
  shown.push(current);
  return shown;
}

/**
 * `text` wrapped at `width`, its first line indented by `first` columns and the lines that
 * continue it by `rest`.
 */
function hanging(text: string, width: number, first: number, rest: number): string[] {
  const [line = '', ...more] = wrap(text, width - first);
  const continued = more.length > 0 ? wrap(more.join(' '), width - rest) : [];
  return [' '.repeat(first) + line, ...continued.map((l) => ' '.repeat(rest) + l)];
}

/** An item whose description column would be narrower than this has its description under its term. */
const NARROWEST_COLUMN = 24;

/**
 * A term and its description: the description in a column beside the terms, wrapped to fit
 * `width`; when that column would be too narrow, under the term.
 */
function formatItem(term: string, termWidth: number, description: string, width: number): string {
  if (!description) return `  ${term}`;
  const column = width - termWidth - 4;
  if (column < NARROWEST_COLUMN)
    return [...hanging(term, width, 2, 4), ...wrap(description, width - 6).map((l) => `      ${l}`)].join('\n');
  const [first, ...rest] = wrap(description, column);
  return [`  ${term.padEnd(termWidth)}  ${first}`, ...rest.map((l) => `${' '.repeat(termWidth + 4)}${l}`)].join('\n');
}

/** Items by the title of their group (commander's `helpGroup`), groups in the order they first appear. */
function groups<T>(items: T[], title: (item: T) => string): Map<string, T[]> {
  const byTitle = new Map<string, T[]>();
  for (const i of items) byTitle.set(title(i), [...(byTitle.get(title(i)) ?? []), i]);
  return byTitle;
}

/**
 * The layout of every help, as `gh` lays it out: usage, description, arguments, the commands,
 * the command's own options, then the options every command takes (the global options, and
 * `--help`) last; the text added after it (examples, notes) follows. Every line is wrapped at
 * the help's width (commander's `helpWidth`: see `terminalWidth`).
 */
export const HELP_LAYOUT: HelpConfiguration = {
  /**
   * The options every command takes are the program's. A command that runs itself and has verbs
   * (`edp sandbox`, `edp sandbox trigger`) has options of its own, which its verbs do not use.
   */
  visibleGlobalOptions(this: Help, cmd: CommandUnknownOpts): Option[] {
    let program = cmd;
    while (program.parent) program = program.parent;
    const all = (Object.getPrototypeOf(this) as Help).visibleGlobalOptions.call(this, cmd);
    return all.filter((o) => program.options.includes(o));
  },
  formatHelp(cmd: CommandUnknownOpts, helper: Help): string {
    const width = helper.helpWidth ?? 80;
    const termWidth = helper.padWidth(cmd, helper);
    const item = (term: string, description: string) => formatItem(term, termWidth, description, width);
    const section = (title: string, items: string[]) => (items.length > 0 ? [title, ...items, ''] : []);
    const options = (list: Option[]) => list.map((o) => item(helper.optionTerm(o), helper.optionDescription(o)));

    // Usage continues under the command's name.
    const output = [...hanging(`Usage: ${helper.commandUsage(cmd)}`, width, 0, 7), ''];
    const description = helper.commandDescription(cmd);
    if (description) output.push(...wrap(description, width), '');
    output.push(
      ...section(
        'Arguments:',
        helper.visibleArguments(cmd).map((a) => item(helper.argumentTerm(a), helper.argumentDescription(a))),
      ),
    );
    for (const [title, commands] of groups(helper.visibleCommands(cmd), (c) => c.helpGroup() || 'Commands:'))
      output.push(
        ...section(
          title,
          commands.map((c) => item(helper.subcommandTerm(c), helper.subcommandDescription(c))),
        ),
      );
    // Below the program, `--help` is listed with the options every command takes.
    const inherited = helper.showGlobalOptions && cmd.parent !== null;
    const own = helper.visibleOptions(cmd);
    const help = inherited ? own.filter((o) => o.long === '--help') : [];
    for (const [title, list] of groups(
      own.filter((o) => !help.includes(o)),
      (o) => o.helpGroupHeading ?? 'Options:',
    ))
      output.push(...section(title, options(list)));
    output.push(...section('Global Options:', options([...helper.visibleGlobalOptions(cmd), ...help])));
    return output.join('\n');
  },
};

/**
 * `edp help NOUN VERB…`, and `edp NOUN help VERB…` in each group: the help of the command those
 * words name, on stdout, exit 0; words that name no command are a usage error (exit 2).
 * Commander's own help command only looks at the first word, so `edp help recipes deploy` would
 * show the recipes group, and in a group it shows the group's help for an unknown word. A
 * group's `help` is not listed among its verbs.
 */
export function addHelpCommand(program: CommandUnknownOpts): void {
  const add = (parent: CommandUnknownOpts) => {
    parent.helpCommand(false);
    parent
      .command('help', { hidden: parent !== program })
      .argument('[command...]', 'the command, e.g. recipes deploy; or `environment`: the variables the tool reads')
      .description('show the help of a command')
      .action(async (words: string[]) => {
        if (parent === program && words.length === 1 && words[0] === 'environment') {
          const { environmentHelp } = await import('./environment-help.js');
          const width = helpWidth(program);
          program.configureOutput().writeOut?.(environmentHelp(width));
          return;
        }
        let cmd: CommandUnknownOpts = parent;
        for (const word of words) {
          const sub = cmd.commands.find((c) => c.name() === word || c.aliases().includes(word));
          // The message carries its own hint: not commander's second one after it.
          if (!sub)
            cmd
              .showHelpAfterError(false)
              .error(
                `error: unknown command '${[...commandPath(cmd), word].join(' ')}'; run \`${['edp', ...commandPath(cmd)].join(' ')} --help\` for the commands`,
                { code: 'commander.unknownCommand', exitCode: 2 },
              );
          cmd = sub!;
        }
        cmd.outputHelp();
      });
  };
  const eachGroup = (cmd: CommandUnknownOpts) => {
    for (const sub of cmd.commands) {
      if (sub.commands.length === 0) continue;
      add(sub);
      eachGroup(sub);
    }
  };
  eachGroup(program);
  add(program);
}

/** A command's words below the program, e.g. `['recipes', 'deploy']`. */
export function commandPath(cmd: CommandUnknownOpts): string[] {
  const names: string[] = [];
  for (let c: CommandUnknownOpts | null = cmd; c?.parent; c = c.parent) names.unshift(c.name());
  return names;
}

/**
 * A group run without its verb (`edp recipes`) shows its help on stdout with exit 0, like
 * `--help`: the person asked what the group offers, which is not an error.
 */
export function groupHelpToStdout(cmd: CommandUnknownOpts): void {
  for (const sub of cmd.commands) {
    if (sub.commands.length > 0) {
      const help = Command.prototype.help as (context: { error: boolean }) => never;
      sub.help = ((): never => help.call(sub, { error: false })) as Command['help'];
      groupHelpToStdout(sub);
    }
  }
}
