import type { Command } from 'commander';
import { collectRepeatable, lazy, legacyRun, type App } from '../shared/app.js';

/** Data sources, connections, accounts and external authentication links (workspace operations, -w). */
export function registerSources(program: Command, app: App): void {
  const datasources = () => import('./datasources.js');
  const connections = () => import('./connections.js');
  const accounts = () => import('./accounts.js');
  const links = () => import('./links.js');

  program
    .command('datasources')
    .description('data sources the workspace can connect')
    .command('list')
    .description('list data sources: name (used by --data-source), title, category')
    .option('--limit <n>', 'stop after n data sources')
    .addHelpText('after', '\nExamples:\n  edp datasources list -w 101')
    .action(legacyRun(app, lazy(datasources, (m) => m.runList)));

  const conn = program.command('connections').description('connections of a data source in a workspace');
  conn
    .command('list')
    .description('list the connections of a data source, with their account counts')
    .requiredOption('--data-source <name>', 'data source name (see `edp datasources list`)')
    .option('--limit <n>', 'stop after n connections')
    .addHelpText('after', '\nExamples:\n  edp connections list -w 101 --data-source google_ads')
    .action(legacyRun(app, lazy(connections, (m) => m.runList)));
  conn
    .command('delete')
    .argument('<id>', 'connection id')
    .description('delete a connection: its accounts become inactive and its extractions pause')
    .option('--data-source <name>', 'delete through the data source path (checks the connection belongs to it)')
    .option('-y, --yes', 'do not ask for confirmation (required when not on a terminal)')
    .addHelpText('after', '\nExamples:\n  edp connections delete 1001 -w 101 --data-source google_ads --yes')
    .action(legacyRun(app, lazy(connections, (m) => m.runDelete)));

  const acc = program.command('accounts').description('accounts of a connection (v3.1 ids: the ones recipes accept)');
  acc
    .command('list')
    .description('list the accounts of a connection, every page')
    .requiredOption('--connection <id>', 'connection id')
    .option('--search <text>', 'title contains the text (case-insensitive); digits also match the account id')
    .option('--active', 'only active accounts (the only ones a recipe accepts)')
    .option('--remote', 'add the remote account_id (from the v3 list), stable across workspaces')
    .option('--limit <n>', 'stop after n accounts')
    .addHelpText('after', '\nExamples:\n  edp accounts list -w 101 --connection 1001 --active\n  edp accounts list -w 101 --connection 1001 --search brand --remote --json')
    .action(legacyRun(app, lazy(accounts, (m) => m.runList)));
  for (const [verb, enabled] of [['enable', true], ['disable', false]] as const) {
    acc
      .command(verb)
      .argument('<account-id...>', 'internal account ids (space- or comma-separated)')
      .description(`${enabled ? 'select' : 'deselect'} accounts for embedded extraction`)
      .requiredOption('--connection <id>', 'connection id')
      .addHelpText('after', `\nExamples:\n  edp accounts ${verb} -w 101 --connection 1001 20001 20003`)
      .action(legacyRun(app, lazy(accounts, (m) => (enabled ? m.runEnable : m.runDisable))));
  }

  const link = program.command('links').description('one-time external authentication links: someone outside the agency connects a data source');
  link
    .command('create')
    .description('create one link per e-mail address (valid 14 days, single use)')
    .requiredOption('--data-source <name>', 'data source name')
    .requiredOption('--to <emails>', 'recipient e-mail addresses, comma-separated or repeated', collectRepeatable)
    .option('--send-email', 'the service e-mails the links (otherwise deliver the URLs yourself)')
    .option('--requested-by <email>', 'active agency user named on the link page (a workspace member or the agency owner); gets a confirmation')
    .addHelpText('after', '\nExamples:\n  edp links create -w 101 --data-source google_ads --to ana@client.com,bo@client.com --send-email --requested-by analyst@agency.com')
    .action(legacyRun(app, lazy(links, (m) => m.runCreate)));
  link
    .command('list')
    .description('list the links of a data source, newest first')
    .requiredOption('--data-source <name>', 'data source name')
    .option('--limit <n>', 'stop after n links')
    .addHelpText('after', '\nExamples:\n  edp links list -w 101 --data-source google_ads')
    .action(legacyRun(app, lazy(links, (m) => m.runList)));
  link
    .command('revoke')
    .argument('<id>', 'link id')
    .description('revoke an unused link (revoking a revoked link changes nothing; asks on a terminal, --yes otherwise)')
    .requiredOption('--data-source <name>', 'data source name')
    .option('-y, --yes', 'do not ask for confirmation (required when not on a terminal)')
    .addHelpText('after', '\nExamples:\n  edp links revoke 12 -w 101 --data-source google_ads --yes')
    .action(legacyRun(app, lazy(links, (m) => m.runRevoke)));
}
