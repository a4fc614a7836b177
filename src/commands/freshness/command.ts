import type { Command } from '@commander-js/extra-typings';
import type { App, OptionsOf } from '../shared/app.js';
import { allWorkspacesFlag, concurrencyFlag } from '../shared/flags.js';
import { examples } from '../shared/help.js';

const freshness = (cmd: Command) =>
  cmd
    .addOption(allWorkspacesFlag())
    .option('--max-age <duration>', 'a part older than this (or never built) is stale: exit 1', '24h')
    .option(
      '--format <format>',
      'text (default), markdown (a ticket), csv (with a header row) or json (same as --json)',
    )
    .addOption(concurrencyFlag('workspaces read at once', 'reads'))
    .addHelpText(
      'after',
      examples(
        [
          'edp freshness --all-workspaces',
          'edp freshness -w 101,102 --max-age 6h',
          'edp freshness --all-workspaces --format markdown > freshness.md   # for a ticket',
          'edp freshness --all-workspaces --format csv > freshness.csv',
        ],
        'One row per workspace and data source of its automated recipes. The service tells only ' +
          'when a recipe build started (last_build_at) and whether it ended ready: LAST BUILD is ' +
          'the oldest start of a successful build among the recipes that use the data source. It ' +
          'tells no time of an extraction run or a load run: EXTRACTION is whether the data ' +
          'source delivered at those builds (with the accounts it did not deliver), and no load ' +
          'time is shown. Ages are by the clock of the service (the Date of its answers). Exit 1 when ' +
          'a build is older than --max-age, a recipe has no successful last build, or a data ' +
          'source delivered nothing; a workspace that cannot be read gets an error row.',
      ),
    );

export type FreshnessOptions = OptionsOf<ReturnType<typeof freshness>>;

export function register(cmd: Command, app: App): void {
  app.verb(freshness(cmd), () => import('./freshness.js').then((m) => m.runFreshness));
}
