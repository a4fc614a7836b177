import type { Command } from '@commander-js/extra-typings';
import type { App, OptionsOf } from '../shared/app.js';
import { concurrencyFlag } from '../shared/flags.js';
import { examples } from '../shared/help.js';

const exportCommand = (cmd: Command) =>
  cmd
    .option('--all-workspaces', 'every workspace of the agency (or -w 101,102 for some)')
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
