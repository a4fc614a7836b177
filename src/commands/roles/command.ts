import { Command, type OptionValues } from '@commander-js/extra-typings';
import { collectRepeatable, type App, type OptionsOf } from '../shared/app.js';
import { yesFlag } from '../shared/flags.js';
import { examples } from '../shared/help.js';

/** The flags of a role's content, shared by create and update. */
const withRoleFlags = <A extends unknown[], O extends OptionValues, G extends OptionValues>(cmd: Command<A, O, G>) =>
  cmd
    .option('--description <text>', 'what the role is for')
    .option(
      '--permission <LAYER:PERM>',
      "a permission from the catalog, repeatable: the complete set (update: replaces the role's)",
      collectRepeatable,
    )
    .option('-f, --file <file>', 'JSON or YAML with title, description, permissions; flags win over it');

const list = () =>
  new Command('list')
    .description('list system and custom roles with their user counts')
    .option('--limit <n>', 'stop after n roles')
    .addHelpText('after', examples(['edp roles list']));
const get = () =>
  new Command('get')
    .argument('<id>', 'role id')
    .description('show one role and its permissions')
    .addHelpText('after', examples(['edp roles get 5 --json']));
const create = () =>
  withRoleFlags(
    new Command('create')
      .description('create a custom role; permissions are checked against the catalog first')
      .option('--title <title>', 'unique in the agency'),
  ).addHelpText(
    'after',
    examples(['edp roles create --title "Report Reader" --permission DATA_TABLE:VIEW --permission RECIPE:VIEW']),
  );
const update = () =>
  withRoleFlags(
    new Command('update')
      .argument('<id>', 'role id')
      .description("change a custom role's title, description or permissions (system roles are read-only)")
      .option('--title <title>', 'new title, unique in the agency')
      .option('--add-permission <LAYER:PERM>', 'add a permission, keeping the others (repeatable)', collectRepeatable)
      .option(
        '--remove-permission <LAYER:PERM>',
        'remove a permission, keeping the others (repeatable)',
        collectRepeatable,
      )
      .addOption(yesFlag('with --permission: replace the set without asking, even when it removes permissions')),
  ).addHelpText(
    'after',
    examples(
      [
        'edp roles update 5 --add-permission EXTRACT:RUN',
        'edp roles update 5 --add-permission LOAD:RUN --remove-permission LOAD:EDIT',
        'edp roles update 5 --permission EXTRACT:VIEW --permission LOAD:RUN --yes',
      ],
      '--permission gives the complete set: what it does not name is removed (shown first; asks on a terminal, --yes elsewhere).',
    ),
  );
const del = () =>
  new Command('delete')
    .argument('<id>', 'role id')
    .description('delete a custom role; its users move to Viewer (asks on a terminal; --yes otherwise)')
    .addOption(yesFlag())
    .addHelpText('after', examples(['edp roles delete 5 --yes']));
const users = () =>
  new Command('users')
    .argument('<id>', 'role id')
    .description('list the users holding a role, with the workspaces where they hold it')
    .option('--limit <n>', 'stop after n users')
    .addHelpText('after', examples(['edp roles users 3']));
const permissions = () =>
  new Command('permissions')
    .description('show the permission catalog: layers and their permissions, in order')
    .addHelpText('after', examples(['edp roles permissions']));

export type ListOptions = OptionsOf<ReturnType<typeof list>>;
export type GetOptions = OptionsOf<ReturnType<typeof get>>;
export type CreateOptions = OptionsOf<ReturnType<typeof create>>;
export type UpdateOptions = OptionsOf<ReturnType<typeof update>>;
export type DeleteOptions = OptionsOf<ReturnType<typeof del>>;
export type UsersOptions = OptionsOf<ReturnType<typeof users>>;
export type PermissionsOptions = OptionsOf<ReturnType<typeof permissions>>;

export function register(roles: Command, app: App): void {
  roles
    .addCommand(app.verb(list(), () => import('./list.js').then((m) => m.runList)))
    .addCommand(app.verb(get(), () => import('./get.js').then((m) => m.runGet)))
    .addCommand(app.verb(create(), () => import('./create.js').then((m) => m.runCreate)))
    .addCommand(app.verb(update(), () => import('./update.js').then((m) => m.runUpdate)))
    .addCommand(app.verb(del(), () => import('./delete.js').then((m) => m.runDelete)))
    .addCommand(app.verb(users(), () => import('./users.js').then((m) => m.runUsers)))
    .addCommand(app.verb(permissions(), () => import('./permissions.js').then((m) => m.runPermissions)));
}
