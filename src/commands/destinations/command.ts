import { Command, type OptionValues } from '@commander-js/extra-typings';
import { collectRepeatable, type App, type OptionsOf } from '../shared/app.js';
import { examples } from '../shared/help.js';

/** S3 and other destination parameters, for connections create and update. */
function withDestinationParams<A extends unknown[], O extends OptionValues, G extends OptionValues>(
  cmd: Command<A, O, G>,
): Command<A, O & ParamFlags, G> {
  const withFlags = cmd
    .option('--connection-option <option>', 'S3: aws_credentials (default), bucket_policy or role_chaining')
    .option('--bucket <name>', 'S3 bucket')
    .option('--region <region>', 'S3 region (default us-east-1)')
    .option('--path-prefix <prefix>', 'S3 key prefix')
    .option('--filename <template>', 'file name template, e.g. {{table_name}}/{{date}}_{{chunk_id}}.parquet')
    .option('--file-format <format>', 'csv or parquet')
    .option(
      '--max-file-size-mb <n>',
      'split files into chunks of at most n MB (45..100000; needs {{chunk_id}} and parquet); "none" clears it',
    )
    .option('--assume-role-arn <arn>', 'S3 role_chaining: the role the service assumes')
    .option('--aws-access-key-id <id>', 'S3 aws_credentials: access key id (env EDP_AWS_ACCESS_KEY_ID)')
    .option(
      '--secret-stdin',
      'read the secret (S3: the secret access key) from stdin; or set EDP_AWS_SECRET_ACCESS_KEY (S3) / EDP_DESTINATION_SECRET',
    )
    .option('--param <key=value>', 'any other connection parameter (repeatable)', collectRepeatable)
    .option('-f, --file <file>', 'connection parameters as JSON or YAML ("-" for stdin); flags override it');
  // Named rather than inferred, as shared/flags.ts withWaitFlags: the inferred type, written out,
  // grows exponentially with the options.
  return withFlags as unknown as Command<A, O & ParamFlags, G>;
}

/** The options `withDestinationParams` declares, as a verb's options hold them. */
export type ParamFlags = {
  connectionOption?: string | undefined;
  bucket?: string | undefined;
  region?: string | undefined;
  pathPrefix?: string | undefined;
  filename?: string | undefined;
  fileFormat?: string | undefined;
  maxFileSizeMb?: string | undefined;
  assumeRoleArn?: string | undefined;
  awsAccessKeyId?: string | undefined;
  secretStdin?: true | undefined;
  param?: string[] | undefined;
  file?: string | undefined;
};

const list = () =>
  new Command('list')
    .description('list the destinations')
    .option('--limit <n>', 'stop after n destinations')
    .addHelpText('after', examples(['edp destinations list -w 101']));
const connectionsList = () =>
  new Command('list')
    .description("list the workspace's connections to a destination")
    .requiredOption('--destination <name>', 'destination name, e.g. s3')
    .option('--limit <n>', 'stop after n connections')
    .addHelpText('after', examples(['edp destinations connections list --destination s3 -w 101']));
const connectionsGet = () =>
  new Command('get')
    .argument('<id>', 'destination connection id')
    .description('show a connection (secrets are never shown)')
    .requiredOption('--destination <name>', 'destination name')
    .addHelpText('after', examples(['edp destinations connections get 7001 --destination s3 -w 101']));
const connectionsCreate = () =>
  withDestinationParams(
    new Command('create')
      .description('create a connection; the service checks it at once')
      .requiredOption('--destination <name>', 'destination name')
      .option('--title <title>', 'connection title (required unless --file has one)'),
  ).addHelpText(
    'after',
    examples([
      'printf %s "$AWS_SECRET" | edp destinations connections create --destination s3 --title Lake --bucket my-lake --aws-access-key-id AKIA... --secret-stdin -w 101',
      'edp destinations connections create --destination s3 --title Lake --connection-option role_chaining --bucket my-lake --assume-role-arn arn:aws:iam::123456789012:role/edp -w 101',
    ]),
  );
const connectionsUpdate = () =>
  withDestinationParams(
    new Command('update')
      .argument('<id>', 'destination connection id')
      .description('change parameters (merged into the current ones, then re-checked) or the title')
      .requiredOption('--destination <name>', 'destination name')
      .option('--title <title>', 'new title'),
  ).addHelpText(
    'after',
    examples([
      'edp destinations connections update 7001 --destination s3 --max-file-size-mb 500 --filename "{{table_name}}/{{date}}_{{chunk_id}}.parquet" --file-format parquet -w 101',
      'EDP_AWS_SECRET_ACCESS_KEY=... edp destinations connections update 7001 --destination s3 --aws-access-key-id AKIA... -w 101',
    ]),
  );
const connectionsRecheck = () =>
  new Command('recheck')
    .argument('<id>', 'destination connection id')
    .description('check the connection again and show its status')
    .requiredOption('--destination <name>', 'destination name')
    .addHelpText('after', examples(['edp destinations connections recheck 7001 --destination s3 -w 101']));

export type ListOptions = OptionsOf<ReturnType<typeof list>>;
export type ConnectionsListOptions = OptionsOf<ReturnType<typeof connectionsList>>;
export type ConnectionsGetOptions = OptionsOf<ReturnType<typeof connectionsGet>>;
export type ConnectionsCreateOptions = OptionsOf<ReturnType<typeof connectionsCreate>>;
export type ConnectionsUpdateOptions = OptionsOf<ReturnType<typeof connectionsUpdate>>;
export type ConnectionsRecheckOptions = OptionsOf<ReturnType<typeof connectionsRecheck>>;

export function register(destinations: Command, app: App): void {
  destinations.addCommand(app.verb(list(), () => import('./list.js').then((m) => m.runList)));
  destinations
    .command('connections')
    .description('connections to a destination (S3 parameters as flags or --file; secrets from stdin or env)')
    .addCommand(app.verb(connectionsList(), () => import('./connections-list.js').then((m) => m.runConnectionsList)))
    .addCommand(app.verb(connectionsGet(), () => import('./connections-get.js').then((m) => m.runConnectionsGet)))
    .addCommand(
      app.verb(connectionsCreate(), () => import('./connections-create.js').then((m) => m.runConnectionsCreate)),
    )
    .addCommand(
      app.verb(connectionsUpdate(), () => import('./connections-update.js').then((m) => m.runConnectionsUpdate)),
    )
    .addCommand(
      app.verb(connectionsRecheck(), () => import('./connections-recheck.js').then((m) => m.runConnectionsRecheck)),
    );
}
