import { Command } from '@commander-js/extra-typings';
import type { App, OptionsOf } from '../shared/app.js';
import { examples } from '../shared/help.js';
import { withBulkFlags } from '../shared/flags.js';

const list = () =>
  new Command('list')
    .description('list the accounts of a connection, every page')
    .requiredOption('--connection <id>', 'connection id')
    .option('--search <text>', 'title contains the text (case-insensitive); digits also match the account id')
    .option('--active', 'only active accounts (the only ones a recipe accepts)')
    .option('--remote', 'add the remote account_id (from the v3 list), stable across workspaces')
    .option('--limit <n>', 'stop after n accounts')
    .addHelpText(
      'after',
      examples([
        'edp accounts list -w 101 --connection 1001 --active',
        'edp accounts list -w 101 --connection 1001 --search brand --remote --json',
      ]),
    );
/** What tells a failed account: it has no run of its own; its extracts' runs are read. */
const ACCOUNT_FAILED =
  "an account whose extract's last run failed; the contract shows no outcome of an extract's runs, so this reads the status the service sends for each extract (failed) and leaves out, with a warning, an account with an extract whose answer has none";
/** `enable` and `disable` take the same arguments. */
const extraction = (verb: 'enable' | 'disable') =>
  withBulkFlags(
    new Command(verb)
      .argument('[account-id...]', 'internal account ids (space- or comma-separated)')
      .description(`${verb === 'enable' ? 'select' : 'deselect'} accounts for embedded extraction`)
      .option('--connection <id>', 'connection id (in bulk: ids, comma-separated)')
      .option('--data-source <names>', 'in bulk: the accounts of these data sources, comma-separated'),
    ACCOUNT_FAILED,
  ).addHelpText(
    'after',
    examples(
      [
        `edp accounts ${verb} -w 101 --connection 1001 20001 20003`,
        `edp accounts ${verb} --data-source google_ads --failed --all-workspaces --yes`,
      ],
      'A connection and its account ids act in the workspace of -w. --data-source, -w with several workspaces, --all-workspaces or --failed act in bulk: the accounts of each data source are read in every workspace (ids narrow them), the count is confirmed (--yes off a terminal), and a row per account ends the run.',
    ),
  );
const enable = () => extraction('enable');
const disable = () => extraction('disable');

export type ListOptions = OptionsOf<ReturnType<typeof list>>;
export type EnableOptions = OptionsOf<ReturnType<typeof enable>>;
export type DisableOptions = OptionsOf<ReturnType<typeof disable>>;

/** edp accounts …: workspace operations (-w) on the accounts of one connection. */
export function register(accounts: Command, app: App): void {
  accounts
    .addCommand(app.verb(list(), () => import('./list.js').then((m) => m.runList)))
    .addCommand(app.verb(enable(), () => import('./enable.js').then((m) => m.runEnable)))
    .addCommand(app.verb(disable(), () => import('./disable.js').then((m) => m.runDisable)));
}
