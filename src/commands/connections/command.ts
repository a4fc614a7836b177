import { Command } from '@commander-js/extra-typings';
import type { App, OptionsOf } from '../shared/app.js';
import { yesFlag } from '../shared/flags.js';
import { examples } from '../shared/help.js';

const list = () =>
  new Command('list')
    .description('list the connections of a data source, with their account counts')
    .requiredOption('--data-source <name>', 'data source name (see `edp datasources list`)')
    .option('--limit <n>', 'stop after n connections')
    .addHelpText('after', examples(['edp connections list -w 101 --data-source google_ads']));
const del = () =>
  new Command('delete')
    .argument('<id>', 'connection id')
    .description('delete a connection: its accounts become inactive and its extractions pause')
    .option('--data-source <name>', 'delete through the data source path (checks the connection belongs to it)')
    .addOption(yesFlag())
    .addHelpText('after', examples(['edp connections delete 1001 -w 101 --data-source google_ads --yes']));

export type ListOptions = OptionsOf<ReturnType<typeof list>>;
export type DeleteOptions = OptionsOf<ReturnType<typeof del>>;

/** edp connections …: workspace operations (-w). */
export function register(connections: Command, app: App): void {
  connections
    .addCommand(app.verb(list(), () => import('./list.js').then((m) => m.runList)))
    .addCommand(app.verb(del(), () => import('./delete.js').then((m) => m.runDelete)));
}
