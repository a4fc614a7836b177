import type { Command } from '@commander-js/extra-typings';
import type { App, OptionsOf } from '../shared/app.js';
import { concurrencyFlag } from '../shared/flags.js';
import { examples } from '../shared/help.js';

const plan = (cmd: Command) =>
  cmd
    .requiredOption('-f, --file <file>', 'the fleet file, YAML or JSON (- for standard input)')
    .option('--detailed-exitcode', 'exit 0 when nothing is to be done, 10 when changes are pending')
    .option(
      '--prune',
      'also plan deleting webhook endpoints and custom roles the file does not name (as apply --prune)',
    )
    .option(
      '--send-secrets',
      'also send again the secret parameters the file gives for destination connections that exist (the service never shows them, so a plan cannot compare them)',
    )
    .addOption(concurrencyFlag('workspaces read at once', 'reads'))
    .option('--format <format>', 'text (default), markdown (a pull-request comment) or json (same as --json)')
    .option('--out <file>', 'also save the plan with the live state it was read from, for `edp apply FILE`')
    .addHelpText(
      'after',
      examples(
        [
          'edp plan -f fleet.yaml',
          'edp plan -f fleet.yaml --json',
          'edp plan -f fleet.yaml --detailed-exitcode; echo $?   # 0 in step, 10 changes pending',
          'edp plan -f fleet.yaml --format markdown > plan.md   # a pull-request comment',
          'edp plan -f fleet.yaml --out plan.json && edp apply plan.json   # apply exactly what was reviewed',
        ],
        'Blocked items (a removal the append-only recipe configuration refuses, an account that does not resolve, a template that cannot be deployed) make the exit code 6, 5 or 2.',
      ),
    );

export type PlanOptions = OptionsOf<ReturnType<typeof plan>>;

export function register(cmd: Command, app: App): void {
  app.verb(plan(cmd), () => import('./plan.js').then((m) => m.runPlan));
}
