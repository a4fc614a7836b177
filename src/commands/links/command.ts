import { Command } from '@commander-js/extra-typings';
import { collectRepeatable, type App, type OptionsOf } from '../shared/app.js';
import { yesFlag } from '../shared/flags.js';
import { examples } from '../shared/help.js';

const create = () =>
  new Command('create')
    .description('create one link per e-mail address (valid 14 days, single use)')
    .requiredOption('--data-source <name>', 'data source name')
    .requiredOption('--to <emails>', 'recipient e-mail addresses, comma-separated or repeated', collectRepeatable)
    .option('--send-email', 'the service e-mails the links (otherwise deliver the URLs yourself)')
    .option(
      '--requested-by <email>',
      'active agency user named on the link page (a workspace member or the agency owner); gets a confirmation',
    )
    .addHelpText(
      'after',
      examples([
        'edp links create -w 101 --data-source google_ads --to ana@client.com,bo@client.com --send-email --requested-by analyst@agency.com',
      ]),
    );
const list = () =>
  new Command('list')
    .description('list the links of a data source, newest first')
    .requiredOption('--data-source <name>', 'data source name')
    .option('--limit <n>', 'stop after n links')
    .addHelpText('after', examples(['edp links list -w 101 --data-source google_ads']));
const revoke = () =>
  new Command('revoke')
    .argument('<id>', 'link id')
    .description('revoke an unused link (revoking a revoked link changes nothing; asks on a terminal, --yes otherwise)')
    .requiredOption('--data-source <name>', 'data source name')
    .addOption(yesFlag())
    .addHelpText('after', examples(['edp links revoke 12 -w 101 --data-source google_ads --yes']));

export type CreateOptions = OptionsOf<ReturnType<typeof create>>;
export type ListOptions = OptionsOf<ReturnType<typeof list>>;
export type RevokeOptions = OptionsOf<ReturnType<typeof revoke>>;

/** edp links …: workspace operations (-w) on the external authentication links of a data source. */
export function register(links: Command, app: App): void {
  links
    .addCommand(app.verb(create(), () => import('./create.js').then((m) => m.runCreate)))
    .addCommand(app.verb(list(), () => import('./list.js').then((m) => m.runList)))
    .addCommand(app.verb(revoke(), () => import('./revoke.js').then((m) => m.runRevoke)));
}
