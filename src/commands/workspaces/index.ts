import type { Command } from 'commander';
import { lazy, type App } from '../app.js';

export function registerWorkspaces(program: Command, app: App): void {
  const ws = program.command('workspaces').description('list and manage the agency\'s workspaces (agency credentials)');
  const load = () => import('./run.js');
  ws.command('list')
    .description('list every workspace')
    .option('--limit <n>', 'stop after n workspaces')
    .action(app.run(lazy(load, (m) => m.runList)));
  ws.command('get')
    .argument('<id>', 'workspace id')
    .description('show one workspace')
    .action(app.run(lazy(load, (m) => m.runGet)));
  ws.command('create')
    .description('create a workspace')
    .requiredOption('--title <title>', 'workspace title')
    .action(app.run(lazy(load, (m) => m.runCreate)));
  ws.command('update')
    .argument('<id>', 'workspace id')
    .description('rename a workspace')
    .requiredOption('--title <title>', 'new title')
    .action(app.run(lazy(load, (m) => m.runUpdate)));
  ws.command('dashboards')
    .argument('<id>', 'workspace id')
    .description('list dashboards of type DATA having enabled recipes in the workspace')
    .option('--limit <n>', 'stop after n dashboards')
    .action(app.run(lazy(load, (m) => m.runDashboards)));
  ws.command('enable-recipe')
    .argument('<workspace-id>', 'workspace id')
    .argument('<recipe-id>', 'agency recipe id (see `edp agency-recipes list`)')
    .description('enable an agency recipe in a workspace')
    .action(app.run(lazy(load, (m) => m.runEnableRecipe)));

  program
    .command('agency-recipes')
    .description('recipes available to the agency')
    .command('list')
    .description('list the recipes available to the agency')
    .option('--limit <n>', 'stop after n recipes')
    .action(app.run(lazy(load, (m) => m.runAgencyRecipes)));
}
