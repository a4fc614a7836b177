import { Command } from '@commander-js/extra-typings';
import type { App, OptionsOf } from '../shared/app.js';
import { examples } from '../shared/help.js';
import { withTemplateSettings } from '../shared/flags.js';

const list = () =>
  new Command('list')
    .description("list the extraction templates of a data source (global and the agency's own)")
    .requiredOption('--data-source <name>', 'data source name, e.g. google_ads')
    .option('--limit <n>', 'stop after n templates')
    .addHelpText('after', examples(['edp extract-templates list --data-source google_ads -w 101']));
const get = () =>
  new Command('get')
    .argument('<id>', 'template id')
    .description('show a template with its sql_name and fields')
    .option('--data-source <name>', 'data source of the template (looked up when omitted)')
    .option('--compact', 'only the compact form: id, data source, is_wide_template')
    .addHelpText(
      'after',
      examples(['edp extract-templates get 302 -w 101', 'edp extract-templates get 302 --compact -w 101 --json']),
    );
const create = () =>
  new Command('create')
    .description('create an agency template from a global parent (needs the EXTRACT.CREATE permission)')
    .requiredOption('--data-source <name>', 'data source name')
    .requiredOption('--parent <id>', 'global parent template id')
    .requiredOption('--title <title>', 'template title')
    .option('--connection <id>', 'connection whose dynamic schema validates the fields (required with a wide parent)')
    .option('--fields <names>', 'fields to keep, comma-separated (required with a wide parent)')
    .option('--dynamic-fields <names>', 'dynamic fields of the connection to add (wide parents only)')
    .addHelpText(
      'after',
      examples([
        'edp extract-templates create --data-source google_ads --parent 302 --title "Ads by landing page" --connection 1001 --fields date,landing_page,spend -w 101',
      ]),
    );
const validate = () =>
  withTemplateSettings(
    new Command('validate')
      .argument('<id>', 'template id')
      .description('check a template with accounts of one connection and optional settings')
      .requiredOption('--accounts <ids>', 'embedded account ids (the `id` of the accounts list), comma-separated'),
  ).addHelpText(
    'after',
    examples(['edp extract-templates validate 302 --accounts 20001,20003 --fields date,ad_name,spend -w 101']),
  );
const preview = () =>
  withTemplateSettings(
    new Command('preview')
      .argument('<id>', 'template id')
      .description('show sample rows the template would extract')
      .option('--accounts <ids>', 'embedded account ids of one connection, comma-separated'),
  ).addHelpText('after', examples(['edp extract-templates preview 301 --accounts 20001 -w 101']));
const settingOptions = () =>
  new Command('setting-options')
    .description('custom setting options of a data source, grouped by account')
    .requiredOption('--data-source <name>', 'data source name')
    .requiredOption('--connection <id>', 'connection id')
    .requiredOption('--accounts <ids>', 'remote account ids, comma-separated')
    .option('--search <text>', 'only options whose title contains this')
    .option('--limit <n>', 'stop after n accounts')
    .addHelpText(
      'after',
      examples([
        'edp extract-templates setting-options --data-source google_ads --connection 1001 --accounts 123-456-7801 -w 101',
      ]),
    );

export type ListOptions = OptionsOf<ReturnType<typeof list>>;
export type GetOptions = OptionsOf<ReturnType<typeof get>>;
export type CreateOptions = OptionsOf<ReturnType<typeof create>>;
export type ValidateOptions = OptionsOf<ReturnType<typeof validate>>;
export type PreviewOptions = OptionsOf<ReturnType<typeof preview>>;
export type SettingOptionsOptions = OptionsOf<ReturnType<typeof settingOptions>>;

export function register(templates: Command, app: App): void {
  templates
    .addCommand(app.verb(list(), () => import('./list.js').then((m) => m.runList)))
    .addCommand(app.verb(get(), () => import('./get.js').then((m) => m.runGet)))
    .addCommand(app.verb(create(), () => import('./create.js').then((m) => m.runCreate)))
    .addCommand(app.verb(validate(), () => import('./validate.js').then((m) => m.runValidate)))
    .addCommand(app.verb(preview(), () => import('./preview.js').then((m) => m.runPreview)))
    .addCommand(app.verb(settingOptions(), () => import('./setting-options.js').then((m) => m.runSettingOptions)));
}
