import { Command } from '@commander-js/extra-typings';
import type { App, OptionsOf } from '../shared/app.js';
import { definitions, examples } from '../shared/help.js';

const KEY = 'workspace, base_url, concurrency or poll_interval';

const get = () =>
  new Command('get')
    .argument('<key>', KEY)
    .description('print the value in effect (--json: with where it came from)')
    .addHelpText('after', examples(['edp config get workspace', 'edp --profile staging config get base_url --json']));
const set = () =>
  new Command('set')
    .argument('<key>', KEY)
    .argument('<value>', 'the value, checked before it is stored')
    .description('store a setting in the profile')
    .addHelpText('after', examples(['edp config set workspace 101', 'edp config set poll_interval 5s']));
const unset = () =>
  new Command('unset')
    .argument('<key>', KEY)
    .description('remove a setting from the profile')
    .addHelpText('after', examples(['edp config unset workspace']));
const list = () =>
  new Command('list')
    .description('every setting with its value and where it came from (flag, environment, profile or default)')
    .addHelpText('after', examples(['edp config list', 'edp --profile staging config list --json']));

export type GetOptions = OptionsOf<ReturnType<typeof get>>;
export type SetOptions = OptionsOf<ReturnType<typeof set>>;
export type UnsetOptions = OptionsOf<ReturnType<typeof unset>>;
export type ListOptions = OptionsOf<ReturnType<typeof list>>;

/** edp config …: per-profile settings (docs/guide.md, Settings). */
export function register(config: Command, app: App): void {
  config
    .addHelpText(
      'after',
      definitions('Settings (each resolved as: flag, then environment variable, then the profile, then the default):', [
        ['workspace', 'the workspace id used when -w is not given (-w/--workspace, EDP_WORKSPACE)'],
        ['base_url', 'the service address, default http://127.0.0.1:4010 (--base-url, EDP_BASE_URL)'],
        [
          'concurrency',
          'workspaces fleet commands work on at once, 1 to 50 or auto, default auto: one per workspace, at most 16 (--concurrency, EDP_CONCURRENCY)',
        ],
        ['poll_interval', 'first pause between reads while waiting, default 2s (--poll-interval, EDP_POLL_INTERVAL)'],
      ]),
    )
    .addHelpText(
      'after',
      examples([
        'edp config set workspace 101',
        'edp --profile staging config set base_url https://edp.staging.example.com',
        'edp config list',
      ]),
    )
    .addCommand(app.verb(get(), () => import('./get.js').then((m) => m.runGet)))
    .addCommand(app.verb(set(), () => import('./set.js').then((m) => m.runSet)))
    .addCommand(app.verb(unset(), () => import('./unset.js').then((m) => m.runUnset)))
    .addCommand(app.verb(list(), () => import('./list.js').then((m) => m.runList)));
}
