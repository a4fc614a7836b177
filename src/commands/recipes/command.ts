import { Command, type OptionValues } from '@commander-js/extra-typings';
import { collectRepeatable, type App, type OptionsOf } from '../shared/app.js';
import { examples } from '../shared/help.js';
import { MAX_CONCURRENCY } from '../../config/defaults.js';
import {
  allWorkspacesFlag,
  concurrencyFlag,
  pollIntervalFlag,
  renamedFlag,
  waitTimeoutFlag,
  withBulkFlags,
  yesFlag,
} from '../shared/flags.js';

/** `--wait`: a verb that starts a build follows it to its end on request. */
function withWait<A extends unknown[], O extends OptionValues, G extends OptionValues>(cmd: Command<A, O, G>) {
  return cmd.option(
    '--wait',
    'poll until the build ends; the exit code tells how (0 ready, 7 failed, 8 timed out, 9 degraded)',
  );
}

/** How a build is waited for: deadline, first pause, and whether degraded fails. */
function withBuildWait<A extends unknown[], O extends OptionValues, G extends OptionValues>(cmd: Command<A, O, G>) {
  return cmd
    .addOption(waitTimeoutFlag('stop waiting after this long (exit 8)'))
    .addOption(pollIntervalFlag('first pause between reads; it grows by half each time'))
    .option('--fail-on-degraded', 'exit 9 when the build is ready but left some data out');
}

const templates = () =>
  new Command('templates')
    .description('list the recipe templates available to the agency')
    .option('--search <text>', 'only templates whose title or description contains the text')
    .option('--limit <n>', 'stop after n templates')
    .addHelpText('after', examples(['edp recipes templates -w 101 --search "paid media"']));

const template = () =>
  new Command('template')
    .argument('<id>', 'template id')
    .description('show a template: build mode, origin, allowed data sources, output columns')
    .addHelpText('after', examples(['edp recipes template 4001 -w 101']));

const list = () =>
  new Command('list')
    .description("list the workspace's recipes")
    .option(
      '--state <state>',
      'only recipes in this state: extracting_data, building_dependencies, ready_to_work, failed',
    )
    .option('--template <id>', 'only recipes of this template')
    .option('--limit <n>', 'stop after n recipes')
    .addHelpText('after', examples(['edp recipes list -w 101 --state failed']));

const get = () =>
  new Command('get')
    .argument('<id>', 'recipe id')
    .description('show a recipe: state, build error, per-source coverage and not-delivered reasons')
    .addHelpText('after', examples(['edp recipes get 9007199254740993 -w 101']));

const create = () =>
  new Command('create')
    .description('create an empty recipe from a template (configure it next)')
    .requiredOption('--template <id>', 'template id')
    .requiredOption(
      '--title <title>',
      'recipe title (names it in the UI only; the output table is named after the template)',
    )
    .addHelpText('after', examples(['edp recipes create -w 101 --template 4001 --title "Paid media"']));

const configure = () =>
  new Command('configure')
    .argument('<id>', 'recipe id')
    .description('add data sources, connections and accounts to a recipe (the configuration only grows)')
    .option('-f, --file <file>', 'the complete configuration as JSON or YAML (- for stdin); removals are refused')
    .option('--data-source <name>', 'data source to add, e.g. google_ads')
    .option(
      '--connection <id>',
      "connection of the data source (default: the recipe's own, else the workspace's only one)",
    )
    .option(
      '--accounts <list>',
      'accounts to add: ids, titles, remote:ID, or all-active (comma-separated or repeated)',
      collectRepeatable,
    )
    .option('--sync-from-date <date>', 'history start, YYYY-MM-DD')
    .addOption(renamedFlag('--sync-from <date>'))
    .addHelpText(
      'after',
      examples(
        [
          'edp recipes configure 9007199254740993 -w 101 --data-source google_ads --accounts remote:123-456-7801,remote:123-456-7802',
          'edp recipes configure 9007199254740993 -w 101 --file config.yaml',
        ],
        'The recipe is read first; its connections stay as they are and additions are appended.',
      ),
    );

const RECIPE_FAILED = 'a recipe in state failed (its last build failed)';
const BULK_NOTE =
  'One id acts on that recipe in the workspace of -w. Several ids, or -w with several workspaces, --all-workspaces, --failed, --state or --template act in bulk: the recipes are read in every workspace, the count is confirmed (--yes off a terminal), and a row per recipe ends the run; `edp recipes status --watch` follows the builds.';
/** `build` and `resetup` act on one recipe, or in bulk across workspaces. */
const onRecipes = (name: string, description: string) =>
  withBulkFlags(
    new Command(name)
      .argument('[ids...]', 'recipe ids (space- or comma-separated)')
      .description(description)
      .option(
        '--state <state>',
        'in bulk: only recipes in this state: extracting_data, building_dependencies, ready_to_work, failed',
      )
      .option('--template <id>', 'in bulk: only recipes of this template'),
    RECIPE_FAILED,
  );
const build = () =>
  withBuildWait(withWait(onRecipes('build', 'start a build (202: started, not finished)'))).addHelpText(
    'after',
    examples(
      [
        'edp recipes build 9007199254740993 -w 101 --wait --fail-on-degraded',
        'edp recipes build --failed --all-workspaces --yes',
      ],
      BULK_NOTE,
    ),
  );

const resetup = () =>
  withBuildWait(
    withWait(
      onRecipes('resetup', "recreate the recipe's steps from its current template, keep the configuration, and build"),
    ),
  ).addHelpText(
    'after',
    examples(
      ['edp recipes resetup 9007199254740993 -w 101 --wait', 'edp recipes resetup --template 4001 -w 101,102 --yes'],
      BULK_NOTE,
    ),
  );

const poll = () =>
  withBuildWait(
    new Command('poll')
      .argument('<id>', 'recipe id')
      .description('wait for a build to end (exit 0 ready, 7 failed, 8 timed out, 9 degraded with --fail-on-degraded)'),
  ).addHelpText('after', examples(['edp recipes poll 9007199254740993 -w 101 --wait-timeout 10m']));

const status = () =>
  new Command('status')
    .description('one row per workspace and recipe: state, degraded, not delivered, last build, error code')
    .addOption(allWorkspacesFlag())
    .option(
      '--watch',
      'follow the builds until every one has ended (redrawn on a terminal, a line per change elsewhere)',
    )
    .addOption(waitTimeoutFlag('with --watch: stop after this long (exit 8)'))
    .addOption(pollIntervalFlag('with --watch: first pause between reads; it grows by half each time'))
    .addOption(concurrencyFlag('workspaces read at once', 'reads'))
    .addHelpText(
      'after',
      examples([
        'edp recipes status --all-workspaces',
        'edp recipes status -w 101,102 --watch',
        'edp recipes status --all-workspaces --json',
      ]),
    );

const extractions = () =>
  new Command('extractions')
    .argument('<id>', 'recipe id')
    .description('check whether the tables of the extractions the last build used exist at the destination')
    .addHelpText('after', examples(['edp recipes extractions 9007199254740993 -w 101']));

const del = () =>
  new Command('delete')
    .argument('<id>', 'recipe id')
    .description('delete a recipe, its output table and the intermediate recipes it is built on')
    .addOption(yesFlag())
    .addHelpText('after', examples(['edp recipes delete 9007199254740993 -w 101 --yes']));

const deploy = () =>
  withBuildWait(
    new Command('deploy')
      .description(
        'deploy a recipe into one or many workspaces: token, template, create or adopt, accounts, configure, build, and a rebuild once missing data arrives',
      )
      .option('--template <id|title>', 'template id or exact title')
      .option('--title <title>', "recipe title (default: the template's)")
      .option('--data-source <name>', 'data source, e.g. google_ads')
      .option(
        '--connection <id>',
        "connection (one workspace only; default: the recipe's own, else the workspace's only one)",
      )
      .option(
        '--accounts <list>',
        'ids, titles, remote:ID, or all-active (comma-separated or repeated)',
        collectRepeatable,
      )
      .option('--sync-from-date <date>', 'history start, YYYY-MM-DD')
      .addOption(renamedFlag('--sync-from <date>'))
      .addOption(allWorkspacesFlag())
      .addOption(concurrencyFlag(`workspaces deployed at once, at most ${MAX_CONCURRENCY}`, 'changes'))
      .option(
        '-f, --file <file>',
        'the deployment as YAML or JSON: template, title, sources[{data_source, connection, accounts}], sync_from_date, workspaces, concurrency',
      )
      .option('--dry-run', 'print the requests it would send; send no write')
      .option('--rebuild', 'build even when the recipe is built and nothing was added'),
  ).addHelpText(
    'after',
    examples(
      [
        'edp recipes deploy -w 101 --template 4001 --data-source google_ads --accounts all-active',
        'edp recipes deploy -w 101,102,103 --template "Paid Media Performance" --data-source google_ads --accounts remote:123-456-7801,remote:123-456-7802 --concurrency 3 --json',
        'edp recipes deploy --all-workspaces --file deploy.yaml --dry-run',
      ],
      'Re-running is safe: an existing recipe is adopted, nothing is added twice, a running build is joined. On a terminal, inputs left out are asked for (template, title, sync date, data sources with their connections and accounts); a summary and a question come before the first write, then the same deployment as one command to reuse. Ctrl-C while waiting leaves the build running on the service.',
    ),
  );

export type TemplatesOptions = OptionsOf<ReturnType<typeof templates>>;
export type TemplateOptions = OptionsOf<ReturnType<typeof template>>;
export type ListOptions = OptionsOf<ReturnType<typeof list>>;
export type GetOptions = OptionsOf<ReturnType<typeof get>>;
export type CreateOptions = OptionsOf<ReturnType<typeof create>>;
export type ConfigureOptions = OptionsOf<ReturnType<typeof configure>>;
export type BuildOptions = OptionsOf<ReturnType<typeof build>>;
export type ResetupOptions = OptionsOf<ReturnType<typeof resetup>>;
export type PollOptions = OptionsOf<ReturnType<typeof poll>>;
export type StatusOptions = OptionsOf<ReturnType<typeof status>>;
export type ExtractionsOptions = OptionsOf<ReturnType<typeof extractions>>;
export type DeleteOptions = OptionsOf<ReturnType<typeof del>>;
export type DeployOptions = OptionsOf<ReturnType<typeof deploy>>;

/** edp recipes …: automated recipes through the v3.1 operations. */
export function register(recipes: Command, app: App): void {
  recipes
    .addCommand(app.verb(templates(), () => import('./templates.js').then((m) => m.runTemplates)))
    .addCommand(app.verb(template(), () => import('./template.js').then((m) => m.runTemplate)))
    .addCommand(app.verb(list(), () => import('./list.js').then((m) => m.runList)))
    .addCommand(app.verb(get(), () => import('./get.js').then((m) => m.runGet)))
    .addCommand(app.verb(create(), () => import('./create.js').then((m) => m.runCreate)))
    .addCommand(app.verb(configure(), () => import('./configure.js').then((m) => m.runConfigure)))
    .addCommand(app.verb(build(), () => import('./build.js').then((m) => m.runBuild)))
    .addCommand(app.verb(resetup(), () => import('./resetup.js').then((m) => m.runResetup)))
    .addCommand(app.verb(poll(), () => import('./poll.js').then((m) => m.runPoll)))
    .addCommand(app.verb(status(), () => import('./status.js').then((m) => m.runStatus)))
    .addCommand(app.verb(extractions(), () => import('./extractions.js').then((m) => m.runExtractions)))
    .addCommand(app.verb(del(), () => import('./delete.js').then((m) => m.runDelete)))
    .addCommand(app.verb(deploy(), () => import('./deploy.js').then((m) => m.runDeploy)));
}
