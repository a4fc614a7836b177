import { Argument, type Command } from '@commander-js/extra-typings';
import type { App, OptionsOf } from '../shared/app.js';
import { examples } from '../shared/help.js';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

const completion = (cmd: Command) =>
  cmd
    .addArgument(new Argument('<shell>', 'bash, zsh or fish').choices(SHELLS))
    .description('print a shell completion script')
    .addHelpText(
      'after',
      examples(
        [
          'edp completion bash > ~/.local/share/bash-completion/completions/edp   # bash (or: source <(edp completion bash))',
          'edp completion zsh > "${fpath[1]}/_edp"                                # zsh, then start a new shell',
          'edp completion fish > ~/.config/fish/completions/edp.fish             # fish',
        ],
        'Commands, flags and fixed values complete from this edp; data source names, workspace ids and recipe ids come from the service, within 2 s, with the credentials and workspace in effect.',
      ),
    );

export type CompletionOptions = OptionsOf<ReturnType<typeof completion>>;

export function register(cmd: Command, app: App): void {
  app.verb(completion(cmd), () => import('./completion.js').then((m) => m.runCompletion));
}
