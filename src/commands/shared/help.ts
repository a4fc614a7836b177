import { Command, type CommandUnknownOpts } from '@commander-js/extra-typings';

/**
 * The examples section of a verb's help, under one label everywhere. `lines` are command
 * lines as a person types them; `note` is a paragraph printed after them.
 */
export function examples(lines: string[], note?: string): string {
  return `\nExamples:\n${lines.map((l) => `  ${l}`).join('\n')}${note ? `\n\n${note}` : ''}`;
}

/**
 * `edp help NOUN VERB…`: the help of the command those words name, on stdout, exit 0.
 * Commander's own help command only looks at the first word, so `edp help recipes deploy`
 * would show the recipes group.
 */
export function addHelpCommand(program: CommandUnknownOpts): void {
  program.helpCommand(false);
  program
    .command('help')
    .argument('[command...]', 'the command, e.g. recipes deploy')
    .description('show the help of a command')
    .action((words: string[]) => {
      let cmd: CommandUnknownOpts = program;
      for (const word of words) {
        const sub = cmd.commands.find((c) => c.name() === word || c.aliases().includes(word));
        // The message carries its own hint: not commander's second one after it.
        if (!sub)
          cmd
            .showHelpAfterError(false)
            .error(
              `error: unknown command '${[...commandPath(cmd), word].join(' ')}'; run \`edp --help\` for the commands`,
              { code: 'commander.unknownCommand', exitCode: 2 },
            );
        cmd = sub!;
      }
      cmd.outputHelp();
    });
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
