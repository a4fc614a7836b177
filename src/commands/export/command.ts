import type { Command } from '@commander-js/extra-typings';
import type { App, OptionsOf } from '../shared/app.js';
import { allWorkspacesFlag, concurrencyFlag } from '../shared/flags.js';
import { examples } from '../shared/help.js';

const exportCommand = (cmd: Command) =>
  cmd
    .addOption(allWorkspacesFlag())
    .option('--output <file>', 'write to this file instead of standard output')
    .option('--force', 'replace --output FILE even when it holds comments, which the export cannot keep')
    .addOption(concurrencyFlag('workspaces read at once'))
    .addHelpText(
      'after',
      examples(
        ['edp export --all-workspaces --output fleet.yaml', 'edp export -w 101,102 --json'],
        '`edp plan -f` on the file reports no change. Secrets are never exported.',
      ),
    );

export type ExportOptions = OptionsOf<ReturnType<typeof exportCommand>>;

export function register(cmd: Command, app: App): void {
  app.verb(exportCommand(cmd), () => import('./export.js').then((m) => m.runExport));
}
