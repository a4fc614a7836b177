import { Command } from '@commander-js/extra-typings';
import type { App, OptionsOf } from '../shared/app.js';
import { examples } from '../shared/help.js';

const list = () =>
  new Command('list')
    .description('list the recipes available to the agency')
    .option('--limit <n>', 'stop after n recipes')
    .addHelpText('after', examples(['edp agency-recipes list', 'edp agency-recipes list --json']));

export type ListOptions = OptionsOf<ReturnType<typeof list>>;

export function register(agencyRecipes: Command, app: App): void {
  agencyRecipes.addCommand(app.verb(list(), () => import('./list.js').then((m) => m.runList)));
}
