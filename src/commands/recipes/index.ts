import type { Command } from 'commander';
import { collectRepeatable, lazy, legacyRun, type App } from '../shared/app.js';

const example = (lines: string) => `\nExamples:\n${lines}`;

function waitFlags(cmd: Command, withWait: boolean): Command {
  if (withWait) cmd.option('--wait', 'poll until the build ends; the exit code tells how (0 ready, 7 failed, 8 timed out, 9 degraded)');
  return cmd
    .option('--wait-timeout <duration>', 'stop waiting after this long (exit 8)', '30m')
    .option('--poll-interval <duration>', 'first pause between reads; it grows by half each time (default 2s; env EDP_POLL_INTERVAL, `edp config set poll_interval`)')
    .option('--fail-on-degraded', 'exit 9 when the build is ready but left some data out');
}

/** edp recipes …: automated recipes through the v3.1 operations (cli-design: Command tree). */
export function registerRecipes(program: Command, app: App): void {
  const recipes = program.command('recipes').description('automated recipes: templates, create, configure, build, poll, deploy (workspace token)');

  recipes
    .command('templates')
    .description('list the recipe templates available to the agency')
    .option('--search <text>', 'only templates whose title or description contains the text')
    .option('--limit <n>', 'stop after n templates')
    .addHelpText('after', example('  edp recipes templates -w 101 --search "paid media"'))
    .action(legacyRun(app, lazy(() => import('./templates.js'), (m) => m.runTemplates)));

  recipes
    .command('template')
    .argument('<id>', 'template id')
    .description('show a template: build mode, origin, allowed data sources, output columns')
    .addHelpText('after', example('  edp recipes template 4001 -w 101'))
    .action(legacyRun(app, lazy(() => import('./templates.js'), (m) => m.runTemplate)));

  recipes
    .command('list')
    .description('list the workspace\'s recipes')
    .option('--state <state>', 'only recipes in this state: extracting_data, building_dependencies, ready_to_work, failed')
    .option('--template <id>', 'only recipes of this template')
    .option('--limit <n>', 'stop after n recipes')
    .addHelpText('after', example('  edp recipes list -w 101 --state failed'))
    .action(legacyRun(app, lazy(() => import('./list.js'), (m) => m.runList)));

  recipes
    .command('get')
    .argument('<id>', 'recipe id')
    .description('show a recipe: state, build error, per-source coverage and not-delivered reasons')
    .addHelpText('after', example('  edp recipes get 9007199254740993 -w 101'))
    .action(legacyRun(app, lazy(() => import('./get.js'), (m) => m.runGet)));

  recipes
    .command('create')
    .description('create an empty recipe from a template (configure it next)')
    .requiredOption('--template <id>', 'template id')
    .requiredOption('--title <title>', 'recipe title (names it in the UI only; the output table is named after the template)')
    .addHelpText('after', example('  edp recipes create -w 101 --template 4001 --title "Paid media"'))
    .action(legacyRun(app, lazy(() => import('./create.js'), (m) => m.runCreate)));

  recipes
    .command('configure')
    .argument('<id>', 'recipe id')
    .description('add data sources, connections and accounts to a recipe (the configuration only grows)')
    .option('--file <file>', 'the complete configuration as JSON or YAML (- for stdin); removals are refused')
    .option('--data-source <name>', 'data source to add, e.g. google_ads')
    .option('--connection <id>', 'connection of the data source (default: the workspace\'s only one)')
    .option('--accounts <list>', 'accounts to add: ids, titles, remote:ID, or all-active (comma-separated or repeated)', collectRepeatable)
    .option('--sync-from <date>', 'history start, YYYY-MM-DD')
    .addHelpText(
      'after',
      example('  edp recipes configure 9007199254740993 -w 101 --data-source google_ads --accounts remote:123-456-7801,remote:123-456-7802\n  edp recipes configure 9007199254740993 -w 101 --file config.yaml') +
        '\n\nThe recipe is read first; its connections stay as they are and additions are appended.',
    )
    .action(legacyRun(app, lazy(() => import('./configure.js'), (m) => m.runConfigure)));

  waitFlags(
    recipes.command('build').argument('<id>', 'recipe id').description('start a build (202: started, not finished)'),
    true,
  )
    .addHelpText('after', example('  edp recipes build 9007199254740993 -w 101 --wait --fail-on-degraded'))
    .action(legacyRun(app, lazy(() => import('./build.js'), (m) => m.runBuild)));

  waitFlags(
    recipes.command('resetup').argument('<id>', 'recipe id').description('recreate the recipe\'s steps from its current template, keep the configuration, and build'),
    true,
  )
    .addHelpText('after', example('  edp recipes resetup 9007199254740993 -w 101 --wait'))
    .action(legacyRun(app, lazy(() => import('./build.js'), (m) => m.runResetup)));

  waitFlags(recipes.command('poll').argument('<id>', 'recipe id').description('wait for a build to end (exit 0 ready, 7 failed, 8 timed out, 9 degraded with --fail-on-degraded)'), false)
    .addHelpText('after', example('  edp recipes poll 9007199254740993 -w 101 --wait-timeout 10m'))
    .action(legacyRun(app, lazy(() => import('./poll.js'), (m) => m.runPoll)));

  recipes
    .command('status')
    .description('one row per workspace and recipe: state, degraded, not delivered, last build, error code')
    .option('--all-workspaces', 'every workspace of the agency (or -w 101,102 for some)')
    .option('--watch', 'follow the builds until every one has ended (redrawn on a terminal, a line per change elsewhere)')
    .option('--wait-timeout <duration>', 'with --watch: stop after this long (exit 8)', '30m')
    .option('--poll-interval <duration>', 'with --watch: first pause between reads; it grows by half each time (default 2s; env EDP_POLL_INTERVAL, `edp config set poll_interval`)')
    .option('--concurrency <n>', 'workspaces read at once (default: auto, one per workspace, at most 16)')
    .addHelpText('after', example('  edp recipes status --all-workspaces\n  edp recipes status -w 101,102 --watch\n  edp recipes status --all-workspaces --json'))
    .action(legacyRun(app, lazy(() => import('./status.js'), (m) => m.runStatus)));

  recipes
    .command('extractions')
    .argument('<id>', 'recipe id')
    .description('check whether the tables of the extractions the last build used exist at the destination')
    .addHelpText('after', example('  edp recipes extractions 9007199254740993 -w 101'))
    .action(legacyRun(app, lazy(() => import('./extractions.js'), (m) => m.runExtractions)));

  recipes
    .command('delete')
    .argument('<id>', 'recipe id')
    .description('delete a recipe, its output table and the intermediate recipes it is built on')
    .option('-y, --yes', 'do not ask for confirmation (required when not on a terminal)')
    .addHelpText('after', example('  edp recipes delete 9007199254740993 -w 101 --yes'))
    .action(legacyRun(app, lazy(() => import('./delete.js'), (m) => m.runDelete)));

  waitFlags(
    recipes
      .command('deploy')
      .description('deploy a recipe into one or many workspaces: token, template, create or adopt, accounts, configure, build, and a rebuild once missing data arrives')
      .option('--template <id|title>', 'template id or exact title')
      .option('--title <title>', 'recipe title (default: the template\'s)')
      .option('--data-source <name>', 'data source, e.g. google_ads')
      .option('--connection <id>', 'connection (one workspace only; default: the workspace\'s only one)')
      .option('--accounts <list>', 'ids, titles, remote:ID, or all-active (comma-separated or repeated)', collectRepeatable)
      .option('--sync-from <date>', 'history start, YYYY-MM-DD')
      .option('--all-workspaces', 'every workspace of the agency (or -w 1,2,3 for some)')
      .option('--concurrency <n>', 'workspaces deployed at once, at most 50 (default: auto, one per workspace, at most 16; env EDP_CONCURRENCY, `edp config set concurrency`)')
      .option('--file <spec>', 'the deployment as YAML or JSON: template, title, sources[{data_source, connection, accounts}], sync_from_date, workspaces, concurrency')
      .option('--dry-run', 'print the requests it would send; send no write')
      .option('--rebuild', 'build even when the recipe is built and nothing was added'),
    false,
  )
    .addHelpText(
      'after',
      example(
        '  edp recipes deploy -w 101 --template 4001 --data-source google_ads --accounts all-active\n' +
          '  edp recipes deploy -w 101,102,103 --template "Paid Media Performance" --data-source google_ads \\\n' +
          '      --accounts remote:123-456-7801,remote:123-456-7802 --concurrency 3 --json\n' +
          '  edp recipes deploy --all-workspaces --file deploy.yaml --dry-run',
      ) +
        '\n\nRe-running is safe: an existing recipe is adopted, nothing is added twice, a running build is joined.\n' +
        'On a terminal, inputs left out are asked for (template, title, sync date, data sources with their\n' +
        'connections and accounts); a summary and a question come before the first write, then the same\n' +
        'deployment as one command to reuse. Ctrl-C while waiting leaves the build running on the service.',
    )
    .action(legacyRun(app, lazy(() => import('./deploy/run.js'), (m) => m.runDeploy)));
}
