import { Command } from '@commander-js/extra-typings';
import type { App, OptionsOf } from '../shared/app.js';
import { examples } from '../shared/help.js';
import { withBulkFlags, withWaitFlags } from '../shared/flags.js';
import { withTemplateSettings } from '../shared/flags.js';

const list = () =>
  new Command('list')
    .description("list the workspace's extracts")
    .option('--connection <ids>', 'only these connections, comma-separated')
    .option('--data-source <names>', 'only these data sources, comma-separated')
    .option('--table <ids>', 'only these data tables, comma-separated')
    .option('--limit <n>', 'stop after n extracts')
    .addHelpText(
      'after',
      examples([
        'edp extracts list -w 101',
        'edp extracts list --data-source google_ads,facebook_ads --table 5001 -w 101',
      ]),
    );
const get = () =>
  new Command('get')
    .argument('<id>', 'extract id')
    .description('show one extract')
    .addHelpText('after', examples(['edp extracts get 40001 -w 101']));
const create = () =>
  withTemplateSettings(
    new Command('create')
      .description('create an extract for one account (its first run starts at once)')
      .requiredOption('--template <id>', 'extraction template id')
      .requiredOption('--account <id>', 'embedded account id (the `id` of the accounts list)')
      .option('--table <id>', 'data table to deliver into (default: a new table)')
      .option('--title <title>', 'extract title')
      .option('--schedule <schedule>', 'hourly, daily (default), weekly or manual'),
  ).addHelpText(
    'after',
    examples(['edp extracts create --template 301 --account 20001 --sync-from-date 2024-01-01 -w 101']),
  );
const update = () =>
  withTemplateSettings(
    new Command('update')
      .argument('<id>', 'extract id')
      .description('change an extract; only what the flags name changes')
      .option('--title <title>', 'extract title')
      .option('--schedule <schedule>', 'hourly, daily, weekly or manual'),
  ).addHelpText(
    'after',
    examples(['edp extracts update 40001 --schedule hourly --fields date,campaign_id,campaign_name,spend -w 101']),
  );
/** What tells a failed extract: the contract shows no outcome of an extract's runs. */
const EXTRACT_FAILED =
  "the contract shows no outcome of an extract's runs; this reads the status the service sends (failed), as run --wait does, and leaves out, with a warning, an extract whose answer has none";
const BULK_NOTE =
  'One id acts on that extract in the workspace of -w. Several ids, or -w with several workspaces, --all-workspaces, --failed or --data-source act in bulk: the extracts are read in every workspace, the count is confirmed (--yes off a terminal), and a row per extract ends the run.';
/** `run`, `pause` and `unpause` act on one extract, or in bulk across workspaces. */
const onExtracts = (name: string, description: string, lines: string[]) =>
  withBulkFlags(
    new Command(name)
      .argument('[ids...]', 'extract ids (space- or comma-separated)')
      .description(description)
      .option('--data-source <names>', 'in bulk: only extracts of these data sources, comma-separated'),
    EXTRACT_FAILED,
  ).addHelpText('after', examples(lines, BULK_NOTE));
const run = () =>
  withWaitFlags(
    onExtracts('run', 'start a run now', [
      'edp extracts run 40001 --wait -w 101',
      'edp extracts run --failed --all-workspaces --yes',
    ]),
  );
const pause = () =>
  onExtracts('pause', 'pause an extract: it delivers nothing until unpaused', [
    'edp extracts pause 40001 -w 101',
    'edp extracts pause --data-source google_ads -w 101,102',
  ]);
const unpause = () =>
  onExtracts('unpause', 'unpause a manually paused extract (a run starts)', [
    'edp extracts unpause 40001 -w 101',
    'edp extracts unpause 40001 40002 40007 -w 101,102 --yes',
  ]);
const migrateWide = () =>
  withTemplateSettings(
    new Command('migrate-wide')
      .argument('<id>', 'extract id to migrate')
      .description('replace an extract with one on a wide template; the original is paused, its data stays queryable')
      .option('--template <id>', "wide template to use (default: the data source's global wide template)"),
  ).addHelpText(
    'after',
    examples(['edp extracts migrate-wide 40001 --fields date,campaign_name,ad_name,spend -w 101']),
  );

export type ListOptions = OptionsOf<ReturnType<typeof list>>;
export type GetOptions = OptionsOf<ReturnType<typeof get>>;
export type CreateOptions = OptionsOf<ReturnType<typeof create>>;
export type UpdateOptions = OptionsOf<ReturnType<typeof update>>;
export type RunOptions = OptionsOf<ReturnType<typeof run>>;
export type PauseOptions = OptionsOf<ReturnType<typeof pause>>;
export type UnpauseOptions = OptionsOf<ReturnType<typeof unpause>>;
export type MigrateWideOptions = OptionsOf<ReturnType<typeof migrateWide>>;

export function register(extracts: Command, app: App): void {
  extracts
    .addCommand(app.verb(list(), () => import('./list.js').then((m) => m.runList)))
    .addCommand(app.verb(get(), () => import('./get.js').then((m) => m.runGet)))
    .addCommand(app.verb(create(), () => import('./create.js').then((m) => m.runCreate)))
    .addCommand(app.verb(update(), () => import('./update.js').then((m) => m.runUpdate)))
    .addCommand(app.verb(run(), () => import('./run.js').then((m) => m.runRun)))
    .addCommand(app.verb(pause(), () => import('./pause.js').then((m) => m.runPause)))
    .addCommand(app.verb(unpause(), () => import('./unpause.js').then((m) => m.runUnpause)))
    .addCommand(app.verb(migrateWide(), () => import('./migrate-wide.js').then((m) => m.runMigrateWide)));
}
