import type { Command } from '@commander-js/extra-typings';
import type { App, OptionsOf } from '../shared/app.js';
import { allWorkspacesFlag, concurrencyFlag } from '../shared/flags.js';
import { examples } from '../shared/help.js';

const exportCommand = (cmd: Command) =>
  cmd
    .addOption(allWorkspacesFlag())
    .option('--output <file>', 'write to this file instead of standard output')
    .option('--force', 'replace --output FILE even when an export did not write it or it was edited since')
    .addOption(concurrencyFlag('workspaces read at once', 'reads'))
    .addHelpText(
      'after',
      examples(
        ['edp export --all-workspaces --output fleet.yaml', 'edp export -w 101,102 --json'],
        "`edp plan -f` on the file reports no change. Each workspace is written as a client (id and title); secrets are never exported. --output FILE starts with a header holding its digest and the address of the fleet file's JSON Schema (for editors): a later export replaces the file while it is unchanged, and one edited since (or not written by export, or JSON) only with --force.",
      ),
    );

export type ExportOptions = OptionsOf<ReturnType<typeof exportCommand>>;

export function register(cmd: Command, app: App): void {
  app.verb(exportCommand(cmd), () => import('./export.js').then((m) => m.runExport));
}
