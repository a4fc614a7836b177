import { Command } from '@commander-js/extra-typings';
import type { App, OptionsOf } from '../shared/app.js';
import { examples } from '../shared/help.js';
import { withBulkFlags, withWaitFlags, yesFlag } from '../shared/flags.js';

const list = () =>
  new Command('list')
    .description("list the workspace's loads")
    .option('--limit <n>', 'stop after n loads')
    .addHelpText('after', examples(['edp loads list -w 101']));
const get = () =>
  new Command('get')
    .argument('<id>', 'load id')
    .description('show a load and its last run')
    .addHelpText('after', examples(['edp loads get 8001 -w 101']));
const create = () =>
  new Command('create')
    .description('create a load of a data table to a destination connection')
    .requiredOption('--table <id>', 'data table id')
    .requiredOption('--destination-connection <id>', 'destination connection id')
    .option('--title <title>', 'load title')
    .option('--schedule <schedule>', 'hourly, daily (default), weekly or manual')
    .addHelpText(
      'after',
      examples(['edp loads create --table 5001 --destination-connection 7001 --schedule daily -w 101']),
    );
const update = () =>
  new Command('update')
    .argument('<id>', 'load id')
    .description('change a load; what the flags do not name stays')
    .option('--title <title>', 'load title')
    .option('--table <id>', 'data table id')
    .option('--destination-connection <id>', 'destination connection id')
    .option('--schedule <schedule>', 'hourly, daily, weekly or manual')
    .addHelpText('after', examples(['edp loads update 8001 --schedule weekly -w 101']));
const del = () =>
  new Command('delete')
    .argument('<id>', 'load id')
    .description('delete a load (asks on a terminal; --yes otherwise)')
    .addOption(yesFlag())
    .addHelpText('after', examples(['edp loads delete 8001 --yes -w 101']));
/** What tells a failed load: the contract shows a load's id alone. */
const LOAD_FAILED =
  "the contract shows nothing of a load's runs; this reads the status of the last run the service sends (last_run.status failed) and leaves out, with a warning, a load whose answer has none";
const BULK_NOTE =
  'One id acts on that load in the workspace of -w. Several ids, or -w with several workspaces, --all-workspaces or --failed act in bulk: the loads are read in every workspace, the count is confirmed (--yes off a terminal), and a row per load ends the run.';
/** `run`, `pause` and `unpause` act on one load, or in bulk across workspaces. */
const onLoads = (name: string, description: string) =>
  withBulkFlags(
    new Command(name).argument('[ids...]', 'load ids (space- or comma-separated)').description(description),
    LOAD_FAILED,
  );
const pause = () =>
  onLoads('pause', 'pause a load: it does not run until unpaused').addHelpText(
    'after',
    examples(['edp loads pause 8001 -w 101', 'edp loads pause --all-workspaces --yes'], BULK_NOTE),
  );
const unpause = () =>
  onLoads('unpause', 'unpause a load').addHelpText(
    'after',
    examples(['edp loads unpause 8001 -w 101', 'edp loads unpause 8001 8004 -w 101,102 --yes'], BULK_NOTE),
  );
const run = () =>
  withWaitFlags(
    onLoads('run', 'run a load now, for the schedule window or a date range')
      .option('--from <date>', 'first day of the range (YYYY-MM-DD; with --to)')
      .option('--to <date>', 'last day of the range (YYYY-MM-DD; with --from)'),
  ).addHelpText(
    'after',
    examples(
      [
        'edp loads run 8001 --from 2024-01-01 --to 2024-01-31 --wait -w 101',
        'edp loads run --failed --all-workspaces --yes',
      ],
      BULK_NOTE,
    ),
  );

export type ListOptions = OptionsOf<ReturnType<typeof list>>;
export type GetOptions = OptionsOf<ReturnType<typeof get>>;
export type CreateOptions = OptionsOf<ReturnType<typeof create>>;
export type UpdateOptions = OptionsOf<ReturnType<typeof update>>;
export type DeleteOptions = OptionsOf<ReturnType<typeof del>>;
export type PauseOptions = OptionsOf<ReturnType<typeof pause>>;
export type UnpauseOptions = OptionsOf<ReturnType<typeof unpause>>;
export type RunOptions = OptionsOf<ReturnType<typeof run>>;

export function register(loads: Command, app: App): void {
  loads
    .addCommand(app.verb(list(), () => import('./list.js').then((m) => m.runList)))
    .addCommand(app.verb(get(), () => import('./get.js').then((m) => m.runGet)))
    .addCommand(app.verb(create(), () => import('./create.js').then((m) => m.runCreate)))
    .addCommand(app.verb(update(), () => import('./update.js').then((m) => m.runUpdate)))
    .addCommand(app.verb(del(), () => import('./delete.js').then((m) => m.runDelete)))
    .addCommand(app.verb(pause(), () => import('./pause.js').then((m) => m.runPause)))
    .addCommand(app.verb(unpause(), () => import('./unpause.js').then((m) => m.runUnpause)))
    .addCommand(app.verb(run(), () => import('./run.js').then((m) => m.runRun)));
}
