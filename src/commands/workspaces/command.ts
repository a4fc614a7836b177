import { Command } from '@commander-js/extra-typings';
import type { App, OptionsOf } from '../shared/app.js';
import { examples } from '../shared/help.js';

const list = () =>
  new Command('list')
    .description('list every workspace')
    .option('--limit <n>', 'stop after n workspaces')
    .addHelpText('after', examples(['edp workspaces list', 'edp workspaces list --limit 10 --json']));
const get = () =>
  new Command('get')
    .argument('<id>', 'workspace id')
    .description('show one workspace')
    .addHelpText('after', examples(['edp workspaces get 101', 'edp workspaces get 101 --json']));
const create = () =>
  new Command('create')
    .description('create a workspace')
    .requiredOption('--title <title>', 'workspace title')
    .addHelpText('after', examples(['edp workspaces create --title "Client: Acme Retail"']));
const update = () =>
  new Command('update')
    .argument('<id>', 'workspace id')
    .description('rename a workspace')
    .requiredOption('--title <title>', 'new title')
    .addHelpText('after', examples(['edp workspaces update 101 --title "Client: Acme Retail EU"']));
const dashboards = () =>
  new Command('dashboards')
    .argument('<id>', 'workspace id')
    .description('list dashboards of type DATA having enabled recipes in the workspace')
    .option('--limit <n>', 'stop after n dashboards')
    .addHelpText('after', examples(['edp workspaces dashboards 101']));
const enableRecipe = () =>
  new Command('enable-recipe')
    .argument('<workspace-id>', 'workspace id')
    .argument('<recipe-id>', 'agency recipe id (see `edp agency-recipes list`)')
    .description('enable an agency recipe in a workspace')
    .addHelpText(
      'after',
      examples(['edp workspaces enable-recipe 101 42', 'edp agency-recipes list   # the agency recipe ids']),
    );

export type ListOptions = OptionsOf<ReturnType<typeof list>>;
export type GetOptions = OptionsOf<ReturnType<typeof get>>;
export type CreateOptions = OptionsOf<ReturnType<typeof create>>;
export type UpdateOptions = OptionsOf<ReturnType<typeof update>>;
export type DashboardsOptions = OptionsOf<ReturnType<typeof dashboards>>;
export type EnableRecipeOptions = OptionsOf<ReturnType<typeof enableRecipe>>;

export function register(workspaces: Command, app: App): void {
  workspaces
    .addCommand(app.verb(list(), () => import('./list.js').then((m) => m.runList)))
    .addCommand(app.verb(get(), () => import('./get.js').then((m) => m.runGet)))
    .addCommand(app.verb(create(), () => import('./create.js').then((m) => m.runCreate)))
    .addCommand(app.verb(update(), () => import('./update.js').then((m) => m.runUpdate)))
    .addCommand(app.verb(dashboards(), () => import('./dashboards.js').then((m) => m.runDashboards)))
    .addCommand(app.verb(enableRecipe(), () => import('./enable-recipe.js').then((m) => m.runEnableRecipe)));
}
