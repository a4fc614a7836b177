import { Command } from '@commander-js/extra-typings';
import type { App, OptionsOf } from '../shared/app.js';
import { examples } from '../shared/help.js';

const list = () =>
  new Command('list')
    .description("list the workspace's data tables")
    .option('--limit <n>', 'stop after n tables')
    .addHelpText('after', examples(['edp tables list -w 101']));
const get = () =>
  new Command('get')
    .argument('<id>', 'data table id')
    .description('show a table with its sql_name and full schema (system fields included)')
    .addHelpText('after', examples(['edp tables get 5001 -w 101']));
const fields = () =>
  new Command('fields')
    .argument('<id>', 'data table id')
    .description("show the fields, or change which are delivered to the table's loads (dimensions always are)")
    .option('--set <names>', 'deliver exactly these fields, comma-separated')
    .option('--add <names>', 'also deliver these fields')
    .option('--remove <names>', 'stop delivering these metrics')
    .addHelpText(
      'after',
      examples([
        'edp tables fields 5001 -w 101',
        'edp tables fields 5001 --remove ctr,conversions -w 101',
        'edp tables fields 5001 --add ctr -w 101',
      ]),
    );

export type ListOptions = OptionsOf<ReturnType<typeof list>>;
export type GetOptions = OptionsOf<ReturnType<typeof get>>;
export type FieldsOptions = OptionsOf<ReturnType<typeof fields>>;

export function register(tables: Command, app: App): void {
  tables
    .addCommand(app.verb(list(), () => import('./list.js').then((m) => m.runList)))
    .addCommand(app.verb(get(), () => import('./get.js').then((m) => m.runGet)))
    .addCommand(app.verb(fields(), () => import('./fields.js').then((m) => m.runFields)));
}
