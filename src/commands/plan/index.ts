import type { Command } from 'commander';
import { lazy, type App } from '../app.js';

export function registerPlan(program: Command, app: App): void {
  program
    .command('plan')
    .description('show what `apply` would change to make the workspaces match a fleet file, and what cannot be done; sends no write')
    .requiredOption('-f, --file <file>', 'the fleet file, YAML or JSON (- for standard input)')
    .option('--detailed-exitcode', 'exit 0 when nothing is to be done, 10 when changes are pending')
    .option('--prune', 'also plan deleting webhook endpoints and custom roles the file does not name (as apply --prune)')
    .option('--concurrency <n>', 'workspaces read at once (default 8)')
    .addHelpText(
      'after',
      '\nExamples:\n  edp plan -f fleet.yaml\n  edp plan -f fleet.yaml --json\n  edp plan -f fleet.yaml --detailed-exitcode; echo $?   # 0 in step, 10 changes pending\n\n' +
        'Blocked items (a removal the append-only recipe configuration refuses, an account that does not resolve,\na template that cannot be deployed) make the exit code 6, 5 or 2.',
    )
    .action(app.run(lazy(() => import('./run.js'), (m) => m.runPlan)));
}
