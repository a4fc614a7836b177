import type { Command } from 'commander';
import { lazy, type App } from '../app.js';
import { examples } from '../help.js';

export function registerWorkspaces(program: Command, app: App): void {
  const ws = program.command('workspaces').description('list and manage the agency\'s workspaces (agency credentials)');
  const load = () => import('./run.js');
  ws.command('list')
    .description('list every workspace')
    .option('--limit <n>', 'stop after n workspaces')
    .addHelpText('after', examples(['edp workspaces list', 'edp workspaces list --limit 10 --json']))
    .action(app.run(lazy(load, (m) => m.runList)));
  ws.command('get')
    .argument('<id>', 'workspace id')
    .description('show one workspace')
    .addHelpText('after', examples(['edp workspaces get 101', 'edp workspaces get 101 --json']))
    .action(app.run(lazy(load, (m) => m.runGet)));
  ws.command('create')
    .description('create a workspace')
    .requiredOption('--title <title>', 'workspace title')
    .addHelpText('after', examples(['edp workspaces create --title "Client: Acme Retail"']))
    .action(app.run(lazy(load, (m) => m.runCreate)));
  ws.command('update')
    .argument('<id>', 'workspace id')
    .description('rename a workspace')
    .requiredOption('--title <title>', 'new title')
    .addHelpText('after', examples(['edp workspaces update 101 --title "Client: Acme Retail EU"']))
    .action(app.run(lazy(load, (m) => m.runUpdate)));
  ws.command('dashboards')
    .argument('<id>', 'workspace id')
    .description('list dashboards of type DATA having enabled recipes in the workspace')
    .option('--limit <n>', 'stop after n dashboards')
    .addHelpText('after', examples(['edp workspaces dashboards 101']))
    .action(app.run(lazy(load, (m) => m.runDashboards)));
  ws.command('enable-recipe')
    .argument('<workspace-id>', 'workspace id')
    .argument('<recipe-id>', 'agency recipe id (see `edp agency-recipes list`)')
    .description('enable an agency recipe in a workspace')
    .addHelpText('after', examples(['edp workspaces enable-recipe 101 42', 'edp agency-recipes list   # the agency recipe ids']))
    .action(app.run(lazy(load, (m) => m.runEnableRecipe)));

  program
    .command('agency-recipes')
    .description('recipes available to the agency')
    .command('list')
    .description('list the recipes available to the agency')
    .option('--limit <n>', 'stop after n recipes')
    .addHelpText('after', examples(['edp agency-recipes list', 'edp agency-recipes list --json']))
    .action(app.run(lazy(load, (m) => m.runAgencyRecipes)));
}
