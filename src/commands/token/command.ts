import type { Command } from '@commander-js/extra-typings';
import type { App, OptionsOf } from '../shared/app.js';
import { examples } from '../shared/help.js';

const token = (cmd: Command) =>
  cmd.addHelpText(
    'after',
    examples([
      'edp token -w 101',
      'curl -H "Authorization: Bearer $(edp token -w 101)" …',
      'edp token -w 101 --json   # {token, workspace_id, expires_at}',
    ]),
  );

export type TokenOptions = OptionsOf<ReturnType<typeof token>>;

export function register(cmd: Command, app: App): void {
  app.verb(token(cmd), () => import('./token.js').then((m) => m.runToken));
}
