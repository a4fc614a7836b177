import type { Command } from '@commander-js/extra-typings';
import type { App, OptionsOf } from '../shared/app.js';
import { concurrencyFlag, pollIntervalFlag, secretsFileFlag, waitTimeoutFlag, yesFlag } from '../shared/flags.js';
import { examples } from '../shared/help.js';

const apply = (cmd: Command) =>
  cmd
    .argument('[plan-file]', 'a plan saved by `edp plan --out`: carried out only if the live state has not moved since')
    .option('-f, --file <file>', 'the fleet file, YAML or JSON (- for standard input)')
    .addOption(yesFlag('do not ask (needed when not at a terminal)'))
    .addOption(concurrencyFlag('workspaces changed at once', 'changes'))
    .option('--prune', 'also delete webhook endpoints and custom roles the file does not name')
    .option(
      '--send-secrets',
      'also send again the secret parameters the file gives for destination connections that exist (a rotated key)',
    )
    .option('--verify', 'verify new webhook endpoints (their receivers must answer the challenge)')
    .addOption(secretsFileFlag("each new webhook endpoint's secret"))
    .addOption(waitTimeoutFlag('stop waiting for a build after this long'))
    .addOption(pollIntervalFlag('first pause between reads of a build; it grows by half each time, up to 15 s'))
    .option(
      '--max-changes <n>',
      'refuse a plan of more than N changes (deletions included) before anything is sent: exit 6',
    )
    .option(
      '--waves <spec>',
      'apply in waves, e.g. 1,10%,100%: cumulative counts or percentages (rounded up) of the workspaces the plan changes, the rest a last wave, roles in the first; each waited on to its end, a failure stops the next',
    )
    .addHelpText(
      'after',
      examples(
        [
          'edp apply -f fleet.yaml',
          'edp apply -f fleet.yaml --yes --concurrency 8 --json',
          'edp apply -f fleet.yaml --yes --prune',
          'edp apply -f fleet.yaml --yes --waves 1,10%,100% --max-changes 200',
          'edp plan -f fleet.yaml --out plan.json && edp apply plan.json --yes',
          'edp webhooks listen --secrets-file secrets.json &  edp apply -f fleet.yaml --yes --secrets-file secrets.json --verify',
        ],
        'Recipes follow `recipes deploy`: an existing recipe is adopted, accounts are only appended, a running build is joined. Nothing is deleted without --prune. A saved plan is refused (exit 6, naming what moved) when the live state changed since it was saved.',
      ),
    );

export type ApplyOptions = OptionsOf<ReturnType<typeof apply>>;

export function register(cmd: Command, app: App): void {
  app.verb(apply(cmd), () => import('./apply.js').then((m) => m.runApply));
}
