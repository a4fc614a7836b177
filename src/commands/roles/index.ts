import type { Command } from 'commander';
import { collectRepeatable, lazy, legacyRun, type App } from '../shared/app.js';
import { examples } from '../shared/help.js';

export function registerRoles(program: Command, app: App): void {
  const roles = program
    .command('roles')
    .description('custom workspace roles and the permission catalog (agency chief credentials, embedded API enabled)');
  const load = () => import('./run.js');
  const writeOptions = (cmd: Command) =>
    cmd
      .option('--description <text>', 'what the role is for')
      .option('--permission <LAYER:PERM>', 'a permission from the catalog, repeatable: the complete set (update: replaces the role\'s)', collectRepeatable)
      .option('--file <file>', 'JSON or YAML with title, description, permissions; flags win over it');
  roles
    .command('list')
    .description('list system and custom roles with their user counts')
    .option('--limit <n>', 'stop after n roles')
    .addHelpText('after', '\nExamples:\n  edp roles list')
    .action(legacyRun(app, lazy(load, (m) => m.runList)));
  roles
    .command('get')
    .argument('<id>', 'role id')
    .description('show one role and its permissions')
    .addHelpText('after', '\nExamples:\n  edp roles get 5 --json')
    .action(legacyRun(app, lazy(load, (m) => m.runGet)));
  writeOptions(
    roles
      .command('create')
      .description('create a custom role; permissions are checked against the catalog first')
      .option('--title <title>', 'unique in the agency'),
  )
    .addHelpText('after', '\nExamples:\n  edp roles create --title "Report Reader" --permission DATA_TABLE:VIEW --permission RECIPE:VIEW')
    .action(legacyRun(app, lazy(load, (m) => m.runCreate)));
  writeOptions(
    roles
      .command('update')
      .argument('<id>', 'role id')
      .description('change a custom role\'s title, description or permissions (system roles are read-only)')
      .option('--title <title>', 'new title, unique in the agency')
      .option('--add-permission <LAYER:PERM>', 'add a permission, keeping the others (repeatable)', collectRepeatable)
      .option('--remove-permission <LAYER:PERM>', 'remove a permission, keeping the others (repeatable)', collectRepeatable)
      .option('-y, --yes', 'with --permission: replace the set without asking, even when it removes permissions'),
  )
    .addHelpText(
      'after',
      examples(
        ['edp roles update 5 --add-permission EXTRACT:RUN', 'edp roles update 5 --add-permission LOAD:RUN --remove-permission LOAD:EDIT', 'edp roles update 5 --permission EXTRACT:VIEW --permission LOAD:RUN --yes'],
        '--permission gives the complete set: what it does not name is removed (shown first; asks on a terminal, --yes elsewhere).',
      ),
    )
    .action(legacyRun(app, lazy(load, (m) => m.runUpdate)));
  roles
    .command('delete')
    .argument('<id>', 'role id')
    .description('delete a custom role; its users move to Viewer (asks on a terminal; --yes otherwise)')
    .option('-y, --yes', 'do not ask for confirmation (required when not on a terminal)')
    .addHelpText('after', '\nExamples:\n  edp roles delete 5 --yes')
    .action(legacyRun(app, lazy(load, (m) => m.runDelete)));
  roles
    .command('users')
    .argument('<id>', 'role id')
    .description('list the users holding a role, with the workspaces where they hold it')
    .option('--limit <n>', 'stop after n users')
    .addHelpText('after', '\nExamples:\n  edp roles users 3')
    .action(legacyRun(app, lazy(load, (m) => m.runUsers)));
  roles
    .command('permissions')
    .description('show the permission catalog: layers and their permissions, in order')
    .addHelpText('after', '\nExamples:\n  edp roles permissions')
    .action(legacyRun(app, lazy(load, (m) => m.runPermissions)));
}
