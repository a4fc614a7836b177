import type { Command } from 'commander';
import { lazy, legacyRun, type App } from '../shared/app.js';
import { examples } from '../shared/help.js';

/** edp config …: per-profile settings (cli-design: Second round). */
export function registerConfig(program: Command, app: App): void {
  const config = program
    .command('config')
    .description('per-profile settings: workspace, base_url, concurrency, poll_interval')
    .addHelpText(
      'after',
      '\nSettings (each resolved as: flag, then environment variable, then the profile, then the default):\n' +
        '  workspace      -w/--workspace, EDP_WORKSPACE          the workspace id used when -w is not given\n' +
        '  base_url       --base-url, EDP_BASE_URL               the service address (default http://127.0.0.1:4010)\n' +
        '  concurrency    --concurrency, EDP_CONCURRENCY         workspaces fleet commands work on at once, 1 to 50 or auto (default auto: one per workspace, at most 16)\n' +
        '  poll_interval  --poll-interval, EDP_POLL_INTERVAL     first pause between reads while waiting (default 2s)\n' +
        '\nExamples:\n  edp config set workspace 101\n  edp --profile staging config set base_url https://edp.staging.example.com\n  edp config list',
    );
  config
    .command('get')
    .argument('<key>', 'workspace, base_url, concurrency or poll_interval')
    .description('print the value in effect (--json: with where it came from)')
    .addHelpText('after', examples(['edp config get workspace', 'edp --profile staging config get base_url --json']))
    .action(legacyRun(app, lazy(() => import('./run.js'), (m) => m.runGet)));
  config
    .command('set')
    .argument('<key>', 'workspace, base_url, concurrency or poll_interval')
    .argument('<value>', 'the value, checked before it is stored')
    .description("store a setting in the profile")
    .addHelpText('after', examples(['edp config set workspace 101', 'edp config set poll_interval 5s']))
    .action(legacyRun(app, lazy(() => import('./run.js'), (m) => m.runSet)));
  config
    .command('unset')
    .argument('<key>', 'workspace, base_url, concurrency or poll_interval')
    .description('remove a setting from the profile')
    .addHelpText('after', examples(['edp config unset workspace']))
    .action(legacyRun(app, lazy(() => import('./run.js'), (m) => m.runUnset)));
  config
    .command('list')
    .description('every setting with its value and where it came from (flag, environment, profile or default)')
    .addHelpText('after', examples(['edp config list', 'edp --profile staging config list --json']))
    .action(legacyRun(app, lazy(() => import('./run.js'), (m) => m.runList)));
}
