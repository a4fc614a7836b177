import { Command } from '@commander-js/extra-typings';
import type { App, OptionsOf } from '../shared/app.js';
import { examples } from '../shared/help.js';

const list = () =>
  new Command('list')
    .description('list data sources: name (used by --data-source), title, category')
    .option('--limit <n>', 'stop after n data sources')
    .addHelpText('after', examples(['edp datasources list -w 101']));

export type ListOptions = OptionsOf<ReturnType<typeof list>>;

/** edp datasources …: a workspace operation (-w). */
export function register(datasources: Command, app: App): void {
  datasources.addCommand(app.verb(list(), () => import('./list.js').then((m) => m.runList)));
}
