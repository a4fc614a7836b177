import type { Command } from 'commander';
import { collectRepeatable, lazy, legacyRun, type App } from '../shared/app.js';
import { examples } from '../shared/help.js';

const example = (lines: string[]) => examples(lines);

/** Template settings flags shared by validate, preview, extract create/update and migrate-wide. */
function settingsOptions(cmd: Command): Command {
  return cmd
    .option('--fields <names>', 'fields to extract, comma-separated')
    .option('--dynamic-fields <names>', 'fields of the connection\'s dynamic schema (wide templates), comma-separated')
    .option('--additional-params <json>', 'additional parameters as a JSON object')
    .option('--custom-filters <json>', 'custom filters as a JSON list')
    .option('--sync-historical-data <date>', 'load history from this date (YYYY-MM-DD); "none" clears it')
    .option('--settings-file <file>', 'template settings as JSON or YAML ("-" for stdin); flags override it');
}

/** Wait flags of the run verbs. */
function waitOptions(cmd: Command): Command {
  return cmd
    .option('--wait', 'follow the run until it ends (exit 1 if it fails)')
    .option('--wait-timeout <duration>', 'with --wait: give up after this long, exit 8 (default 30m)');
}

/** S3 and other destination parameters, for connections create and update. */
function destinationParamOptions(cmd: Command): Command {
  return cmd
    .option('--connection-option <option>', 'S3: aws_credentials (default), bucket_policy or role_chaining')
    .option('--bucket <name>', 'S3 bucket')
    .option('--region <region>', 'S3 region (default us-east-1)')
    .option('--path-prefix <prefix>', 'S3 key prefix')
    .option('--filename <template>', 'file name template, e.g. {{table_name}}/{{date}}_{{chunk_id}}.parquet')
    .option('--file-format <format>', 'csv or parquet')
    .option('--max-file-size-mb <n>', 'split files into chunks of at most n MB (45..100000; needs {{chunk_id}} and parquet); "none" clears it')
    .option('--assume-role-arn <arn>', 'S3 role_chaining: the role the service assumes')
    .option('--aws-access-key-id <id>', 'S3 aws_credentials: access key id (env EDP_AWS_ACCESS_KEY_ID)')
    .option('--secret-stdin', 'read the secret (S3: the secret access key) from stdin; or set EDP_AWS_SECRET_ACCESS_KEY (S3) / EDP_DESTINATION_SECRET')
    .option('--param <key=value>', 'any other connection parameter (repeatable)', collectRepeatable)
    .option('--file <file>', 'connection parameters as JSON or YAML ("-" for stdin); flags override it');
}

export function registerExtraction(program: Command, app: App): void {
  registerTemplates(program, app);
  registerExtracts(program, app);
  registerDestinations(program, app);
  registerTables(program, app);
  registerLoads(program, app);
}

function registerTemplates(program: Command, app: App): void {
  const group = program.command('extract-templates').description('extraction templates: the fields a data source offers and their defaults');
  const load = () => import('./templates-run.js');
  group.command('list')
    .description('list the extraction templates of a data source (global and the agency\'s own)')
    .requiredOption('--data-source <name>', 'data source name, e.g. google_ads')
    .option('--limit <n>', 'stop after n templates')
    .addHelpText('after', example(['edp extract-templates list --data-source google_ads -w 101']))
    .action(legacyRun(app, lazy(load, (m) => m.runList)));
  group.command('get')
    .argument('<id>', 'template id')
    .description('show a template with its sql_name and fields')
    .option('--data-source <name>', 'data source of the template (looked up when omitted)')
    .option('--compact', 'only the compact form: id, data source, is_wide_template')
    .addHelpText('after', example(['edp extract-templates get 302 -w 101', 'edp extract-templates get 302 --compact -w 101 --json']))
    .action(legacyRun(app, lazy(load, (m) => m.runGet)));
  group.command('create')
    .description('create an agency template from a global parent (needs the EXTRACT.CREATE permission)')
    .requiredOption('--data-source <name>', 'data source name')
    .requiredOption('--parent <id>', 'global parent template id')
    .requiredOption('--title <title>', 'template title')
    .option('--connection <id>', 'connection whose dynamic schema validates the fields (required with a wide parent)')
    .option('--fields <names>', 'fields to keep, comma-separated (required with a wide parent)')
    .option('--dynamic-fields <names>', 'dynamic fields of the connection to add (wide parents only)')
    .addHelpText('after', example([
      'edp extract-templates create --data-source google_ads --parent 302 --title "Ads by landing page" --connection 1001 --fields date,landing_page,spend -w 101',
    ]))
    .action(legacyRun(app, lazy(load, (m) => m.runCreate)));
  settingsOptions(
    group.command('validate')
      .argument('<id>', 'template id')
      .description('check a template with accounts of one connection and optional settings')
      .requiredOption('--accounts <ids>', 'embedded account ids (the `id` of the accounts list), comma-separated'),
  )
    .addHelpText('after', example(['edp extract-templates validate 302 --accounts 20001,20003 --fields date,ad_name,spend -w 101']))
    .action(legacyRun(app, lazy(load, (m) => m.runValidate)));
  settingsOptions(
    group.command('preview')
      .argument('<id>', 'template id')
      .description('show sample rows the template would extract')
      .option('--accounts <ids>', 'embedded account ids of one connection, comma-separated'),
  )
    .addHelpText('after', example(['edp extract-templates preview 301 --accounts 20001 -w 101']))
    .action(legacyRun(app, lazy(load, (m) => m.runPreview)));
  group.command('setting-options')
    .description('custom setting options of a data source, grouped by account')
    .requiredOption('--data-source <name>', 'data source name')
    .requiredOption('--connection <id>', 'connection id')
    .requiredOption('--accounts <ids>', 'remote account ids, comma-separated')
    .option('--search <text>', 'only options whose title contains this')
    .option('--limit <n>', 'stop after n accounts')
    .addHelpText('after', example(['edp extract-templates setting-options --data-source google_ads --connection 1001 --accounts 123-456-7801 -w 101']))
    .action(legacyRun(app, lazy(load, (m) => m.runSettingOptions)));
}

function registerExtracts(program: Command, app: App): void {
  const group = program.command('extracts').description('extracts: pull an account\'s data into a data table, on a schedule or on demand');
  const load = () => import('./extracts-run.js');
  group.command('list')
    .description('list the workspace\'s extracts')
    .option('--connection <ids>', 'only these connections, comma-separated')
    .option('--data-source <names>', 'only these data sources, comma-separated')
    .option('--table <ids>', 'only these data tables, comma-separated')
    .option('--limit <n>', 'stop after n extracts')
    .addHelpText('after', example(['edp extracts list -w 101', 'edp extracts list --data-source google_ads,facebook_ads --table 5001 -w 101']))
    .action(legacyRun(app, lazy(load, (m) => m.runList)));
  group.command('get')
    .argument('<id>', 'extract id')
    .description('show one extract')
    .addHelpText('after', example(['edp extracts get 40001 -w 101']))
    .action(legacyRun(app, lazy(load, (m) => m.runGet)));
  settingsOptions(
    group.command('create')
      .description('create an extract for one account (its first run starts at once)')
      .requiredOption('--template <id>', 'extraction template id')
      .requiredOption('--account <id>', 'embedded account id (the `id` of the accounts list)')
      .option('--table <id>', 'data table to deliver into (default: a new table)')
      .option('--title <title>', 'extract title')
      .option('--schedule <schedule>', 'hourly, daily (default), weekly or manual'),
  )
    .addHelpText('after', example(['edp extracts create --template 301 --account 20001 --sync-historical-data 2024-01-01 -w 101']))
    .action(legacyRun(app, lazy(load, (m) => m.runCreate)));
  settingsOptions(
    group.command('update')
      .argument('<id>', 'extract id')
      .description('change an extract; only what the flags name changes')
      .option('--title <title>', 'extract title')
      .option('--schedule <schedule>', 'hourly, daily, weekly or manual'),
  )
    .addHelpText('after', example(['edp extracts update 40001 --schedule hourly --fields date,campaign_id,campaign_name,spend -w 101']))
    .action(legacyRun(app, lazy(load, (m) => m.runUpdate)));
  waitOptions(group.command('run').argument('<id>', 'extract id').description('start a run now'))
    .addHelpText('after', example(['edp extracts run 40001 --wait -w 101']))
    .action(legacyRun(app, lazy(load, (m) => m.runRun)));
  group.command('pause')
    .argument('<id>', 'extract id')
    .description('pause an extract: it delivers nothing until unpaused')
    .addHelpText('after', example(['edp extracts pause 40001 -w 101']))
    .action(legacyRun(app, lazy(load, (m) => m.runPause)));
  group.command('unpause')
    .argument('<id>', 'extract id')
    .description('unpause a manually paused extract (a run starts)')
    .addHelpText('after', example(['edp extracts unpause 40001 -w 101']))
    .action(legacyRun(app, lazy(load, (m) => m.runUnpause)));
  settingsOptions(
    group.command('migrate-wide')
      .argument('<id>', 'extract id to migrate')
      .description('replace an extract with one on a wide template; the original is paused, its data stays queryable')
      .option('--template <id>', 'wide template to use (default: the data source\'s global wide template)'),
  )
    .addHelpText('after', example(['edp extracts migrate-wide 40001 --fields date,campaign_name,ad_name,spend -w 101']))
    .action(legacyRun(app, lazy(load, (m) => m.runMigrateWide)));
}

function registerDestinations(program: Command, app: App): void {
  const group = program.command('destinations').description('destinations and destination connections: where loads deliver data');
  const load = () => import('./destinations-run.js');
  group.command('list')
    .description('list the destinations')
    .option('--limit <n>', 'stop after n destinations')
    .addHelpText('after', example(['edp destinations list -w 101']))
    .action(legacyRun(app, lazy(load, (m) => m.runListDestinations)));
  const connections = group.command('connections').description('connections to a destination (S3 parameters as flags or --file; secrets from stdin or env)');
  connections.command('list')
    .description('list the workspace\'s connections to a destination')
    .requiredOption('--destination <name>', 'destination name, e.g. s3')
    .option('--limit <n>', 'stop after n connections')
    .addHelpText('after', example(['edp destinations connections list --destination s3 -w 101']))
    .action(legacyRun(app, lazy(load, (m) => m.runListConnections)));
  connections.command('get')
    .argument('<id>', 'destination connection id')
    .description('show a connection (secrets are never shown)')
    .requiredOption('--destination <name>', 'destination name')
    .addHelpText('after', example(['edp destinations connections get 7001 --destination s3 -w 101']))
    .action(legacyRun(app, lazy(load, (m) => m.runGetConnection)));
  destinationParamOptions(
    connections.command('create')
      .description('create a connection; the service checks it at once')
      .requiredOption('--destination <name>', 'destination name')
      .option('--title <title>', 'connection title (required unless --file has one)'),
  )
    .addHelpText('after', example([
      'printf %s "$AWS_SECRET" | edp destinations connections create --destination s3 --title Lake --bucket my-lake --aws-access-key-id AKIA... --secret-stdin -w 101',
      'edp destinations connections create --destination s3 --title Lake --connection-option role_chaining --bucket my-lake --assume-role-arn arn:aws:iam::123456789012:role/edp -w 101',
    ]))
    .action(legacyRun(app, lazy(load, (m) => m.runCreateConnection)));
  destinationParamOptions(
    connections.command('update')
      .argument('<id>', 'destination connection id')
      .description('change parameters (merged into the current ones, then re-checked) or the title')
      .requiredOption('--destination <name>', 'destination name')
      .option('--title <title>', 'new title'),
  )
    .addHelpText('after', example([
      'edp destinations connections update 7001 --destination s3 --max-file-size-mb 500 --filename "{{table_name}}/{{date}}_{{chunk_id}}.parquet" --file-format parquet -w 101',
      'EDP_AWS_SECRET_ACCESS_KEY=... edp destinations connections update 7001 --destination s3 --aws-access-key-id AKIA... -w 101',
    ]))
    .action(legacyRun(app, lazy(load, (m) => m.runUpdateConnection)));
  connections.command('recheck')
    .argument('<id>', 'destination connection id')
    .description('check the connection again and show its status')
    .requiredOption('--destination <name>', 'destination name')
    .addHelpText('after', example(['edp destinations connections recheck 7001 --destination s3 -w 101']))
    .action(legacyRun(app, lazy(load, (m) => m.runRecheckConnection)));
}

function registerTables(program: Command, app: App): void {
  const group = program.command('tables').description('data tables: where extracts deliver rows');
  const load = () => import('./tables-run.js');
  group.command('list')
    .description('list the workspace\'s data tables')
    .option('--limit <n>', 'stop after n tables')
    .addHelpText('after', example(['edp tables list -w 101']))
    .action(legacyRun(app, lazy(load, (m) => m.runList)));
  group.command('get')
    .argument('<id>', 'data table id')
    .description('show a table with its sql_name and full schema (system fields included)')
    .addHelpText('after', example(['edp tables get 5001 -w 101']))
    .action(legacyRun(app, lazy(load, (m) => m.runGet)));
  group.command('fields')
    .argument('<id>', 'data table id')
    .description('show the fields, or change which are delivered to the table\'s loads (dimensions always are)')
    .option('--set <names>', 'deliver exactly these fields, comma-separated')
    .option('--add <names>', 'also deliver these fields')
    .option('--remove <names>', 'stop delivering these metrics')
    .addHelpText('after', example(['edp tables fields 5001 -w 101', 'edp tables fields 5001 --remove ctr,conversions -w 101', 'edp tables fields 5001 --add ctr -w 101']))
    .action(legacyRun(app, lazy(load, (m) => m.runFields)));
}

function registerLoads(program: Command, app: App): void {
  const group = program.command('loads').description('loads: deliver a data table to a destination connection');
  const load = () => import('./loads-run.js');
  group.command('list')
    .description('list the workspace\'s loads')
    .option('--limit <n>', 'stop after n loads')
    .addHelpText('after', example(['edp loads list -w 101']))
    .action(legacyRun(app, lazy(load, (m) => m.runList)));
  group.command('get')
    .argument('<id>', 'load id')
    .description('show a load and its last run')
    .addHelpText('after', example(['edp loads get 8001 -w 101']))
    .action(legacyRun(app, lazy(load, (m) => m.runGet)));
  group.command('create')
    .description('create a load of a data table to a destination connection')
    .requiredOption('--table <id>', 'data table id')
    .requiredOption('--destination-connection <id>', 'destination connection id')
    .option('--title <title>', 'load title')
    .option('--schedule <schedule>', 'hourly, daily (default), weekly or manual')
    .addHelpText('after', example(['edp loads create --table 5001 --destination-connection 7001 --schedule daily -w 101']))
    .action(legacyRun(app, lazy(load, (m) => m.runCreate)));
  group.command('update')
    .argument('<id>', 'load id')
    .description('change a load; what the flags do not name stays')
    .option('--title <title>', 'load title')
    .option('--table <id>', 'data table id')
    .option('--destination-connection <id>', 'destination connection id')
    .option('--schedule <schedule>', 'hourly, daily, weekly or manual')
    .addHelpText('after', example(['edp loads update 8001 --schedule weekly -w 101']))
    .action(legacyRun(app, lazy(load, (m) => m.runUpdate)));
  group.command('delete')
    .argument('<id>', 'load id')
    .description('delete a load (asks on a terminal; --yes otherwise)')
    .option('-y, --yes', 'do not ask for confirmation (required when not on a terminal)')
    .addHelpText('after', example(['edp loads delete 8001 --yes -w 101']))
    .action(legacyRun(app, lazy(load, (m) => m.runDelete)));
  group.command('pause')
    .argument('<id>', 'load id')
    .description('pause a load: it does not run until unpaused')
    .addHelpText('after', example(['edp loads pause 8001 -w 101']))
    .action(legacyRun(app, lazy(load, (m) => m.runPause)));
  group.command('unpause')
    .argument('<id>', 'load id')
    .description('unpause a load')
    .addHelpText('after', example(['edp loads unpause 8001 -w 101']))
    .action(legacyRun(app, lazy(load, (m) => m.runUnpause)));
  waitOptions(
    group.command('run')
      .argument('<id>', 'load id')
      .description('run a load now, for the schedule window or a date range')
      .option('--from <date>', 'first day of the range (YYYY-MM-DD; with --to)')
      .option('--to <date>', 'last day of the range (YYYY-MM-DD; with --from)'),
  )
    .addHelpText('after', example(['edp loads run 8001 --from 2024-01-01 --to 2024-01-31 --wait -w 101']))
    .action(legacyRun(app, lazy(load, (m) => m.runRun)));
}
