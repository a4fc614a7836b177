import type { Command } from 'commander';
import { lazy, type App } from '../app.js';

export function registerApply(program: Command, app: App): void {
  program
    .command('apply')
    .description('make the workspaces match a fleet file: shows the plan, asks, then creates, appends, builds and updates (safe to re-run)')
    .requiredOption('-f, --file <file>', 'the fleet file, YAML or JSON (- for standard input)')
    .option('-y, --yes', 'do not ask (needed when not at a terminal)')
    .option('--concurrency <n>', 'workspaces changed at once (default 4)')
    .option('--prune', 'also delete webhook endpoints and custom roles the file does not name')
    .option('--verify', 'verify new webhook endpoints (their receivers must answer the challenge)')
    .option('--wait-timeout <duration>', 'stop waiting for a build after this long', '30m')
    .option('--poll-interval <duration>', 'first pause between reads of a build; it grows by half each time', '2s')
    .addHelpText(
      'after',
      '\nExamples:\n  edp apply -f fleet.yaml\n  edp apply -f fleet.yaml --yes --concurrency 8 --json\n  edp apply -f fleet.yaml --yes --prune\n\n' +
        'Recipes follow `recipes deploy`: an existing recipe is adopted, accounts are only appended, a running\nbuild is joined. Nothing is deleted without --prune.',
    )
    .action(app.run(lazy(() => import('./run.js'), (m) => m.runApply)));
}
