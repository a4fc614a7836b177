import type { Command } from '@commander-js/extra-typings';
import type { App, OptionsOf } from '../shared/app.js';
import { examples } from '../shared/help.js';

const token = (cmd: Command) =>
  cmd
    .option('--env', 'print shell lines that set EDP_TOKEN and EDP_WORKSPACE, the workspace the token acts in')
    .addHelpText(
      'after',
      examples(
        [
          'edp token -w 101',
          'curl -H "Authorization: Bearer $(edp token -w 101)" …',
          'edp token -w 101 --json   # {token, workspace_id, expires_at}',
          'eval "$(edp -w 101 token --env)"   # later commands act in workspace 101 with this token',
        ],
        'A token acts in its one workspace. EDP_TOKEN is used only with EDP_WORKSPACE naming that workspace, and a -w naming another is refused: --env prints both.',
      ),
    );

export type TokenOptions = OptionsOf<ReturnType<typeof token>>;

export function register(cmd: Command, app: App): void {
  app.verb(token(cmd), () => import('./token.js').then((m) => m.runToken));
}
