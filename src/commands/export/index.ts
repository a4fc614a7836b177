import type { Command } from 'commander';
import { lazy, type App } from '../app.js';

export function registerExport(program: Command, app: App): void {
  program
    .command('export')
    .description('write the current state of workspaces as a fleet file: recipes, webhook endpoints, custom roles (YAML; --json for JSON)')
    .option('--all-workspaces', 'every workspace of the agency (or -w 101,102 for some)')
    .option('--output <file>', 'write to this file instead of standard output')
    .addHelpText('after', '\nExamples:\n  edp export --all-workspaces --output fleet.yaml\n  edp export -w 101,102 --json\n\n`edp plan -f` on the file reports no change. Secrets are never exported.')
    .action(app.run(lazy(() => import('./run.js'), (m) => m.runExport)));
}
