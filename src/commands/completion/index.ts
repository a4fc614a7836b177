import { Argument, type Command } from 'commander';
import { lazy, legacyRun, type App } from '../shared/app.js';
import { SHELLS } from './scripts.js';

export function registerCompletion(program: Command, app: App): void {
  program
    .command('completion')
    .addArgument(new Argument('<shell>', 'bash, zsh or fish').choices(SHELLS))
    .description('print a shell completion script')
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  edp completion bash > ~/.local/share/bash-completion/completions/edp   # bash (or: source <(edp completion bash))\n' +
        '  edp completion zsh > "${fpath[1]}/_edp"                                # zsh, then start a new shell\n' +
        '  edp completion fish > ~/.config/fish/completions/edp.fish             # fish\n' +
        '\nCommands, flags and fixed values complete from this edp; data source names, workspace ids and\n' +
        'recipe ids come from the service, within 2 s, with the credentials and workspace in effect.',
    )
    .action(
      legacyRun(app, 
        lazy(
          () => import('./scripts.js'),
          (m) => async (ctx, [shell]) => {
            ctx.output.write(m.completionScript(shell as (typeof SHELLS)[number]));
            return 0;
          },
        ),
      ),
    );
}
