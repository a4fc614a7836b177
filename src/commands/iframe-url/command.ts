import type { Command } from '@commander-js/extra-typings';
import type { App, OptionsOf } from '../shared/app.js';
import { examples } from '../shared/help.js';

const iframeUrl = (cmd: Command) =>
  cmd
    .option('--type <type>', 'datasource or destination')
    .option('--name <name>', 'string id of the data source or destination')
    .option(
      '--show-account-selection',
      'two-step flow: authorize, then pick accounts (adds show_account_selection=True)',
    )
    .option('--use-default-auth', 'hide the authentication-method chooser (adds use_default_auth=True)')
    .option('--show-connectors-list', 'show the list of connectors')
    .option('--no-show-connectors-list', 'hide the list of connectors')
    .option('--show-datasources', 'show data sources')
    .option('--no-show-datasources', 'hide data sources')
    .option('--show-accounts', 'show accounts')
    .option('--no-show-accounts', 'hide accounts')
    .option('--show-accounts-only-on-auth', 'show accounts only on authorization (needs --no-show-accounts)')
    .addHelpText(
      'after',
      examples(['edp iframe-url -w 101 --type datasource --name google_ads --show-account-selection']),
    );

export type IframeUrlOptions = OptionsOf<ReturnType<typeof iframeUrl>>;

export function register(cmd: Command, app: App): void {
  app.verb(iframeUrl(cmd), () => import('./iframe-url.js').then((m) => m.runIframeUrl));
}
