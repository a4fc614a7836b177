import type { Command } from 'commander';
import { lazy, type App } from '../app.js';

export function registerDoctor(program: Command, app: App): void {
  program
    .command('doctor')
    .description('check workspaces: credentials and token, destination, recipe accounts, webhook endpoints; each finding names its fix')
    .option('--all-workspaces', 'every workspace of the agency (or -w 101,102 for some)')
    .option('--concurrency <n>', 'workspaces checked at once (default 8)')
    .addHelpText('after', '\nExamples:\n  edp doctor --all-workspaces\n  edp doctor -w 101 --json\n\nExit 1 when something needs action, 0 otherwise.')
    .action(app.run(lazy(() => import('./run.js'), (m) => m.runDoctor)));
}
