import { Option, type Command, type OptionValues } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { DEFAULT_POLL_INTERVAL, DEFAULT_WAIT_TIMEOUT } from '../../config/defaults.js';
import { autoCap, type FleetWork } from './concurrency.js';

/**
 * Flags several commands declare, for their `command.ts` (loaded at start-up): this module
 * imports nothing but the defaults. What reads the flags is in poll.ts, template-settings.ts
 * and concurrency.ts, loaded when a verb runs.
 */

/** The `-y, --yes` help of a verb that asks before it removes or changes something. */
const YES_HELP = 'do not ask for confirmation (required when not on a terminal)';

/**
 * The flags several verbs take, each declared once, here: its name, its argument and its
 * default, which its help states the same way everywhere; a verb gives only what the flag
 * does there. A verb receives the value as given (undefined when it was left out): the
 * default is applied where the flag is read (poll.ts, concurrency.ts), after the
 * environment and the profile, which come between a flag and the default.
 */
export const SHARED_FLAGS = [
  '--wait-timeout',
  '--poll-interval',
  '--concurrency',
  '--all-workspaces',
  '--yes',
  '--secrets-file',
  '--failed',
] as const;

/**
 * The mark of an option made here. A registered symbol, not a set of the options made: the
 * command tests also run against the bundle, whose copy of this module is not the tests' one.
 */
const DECLARED_HERE = Symbol.for('edp.shared-flag');

/** Whether an option is one of the shared flags made here (test/commands/one-place.test.ts). */
export function isSharedFlag(option: object): boolean {
  return DECLARED_HERE in option;
}

function sharedFlag<F extends string>(flags: F, help: string): Option<F> {
  return Object.assign(new Option(flags, help), { [DECLARED_HERE]: true });
}

/** `--wait-timeout`: how long a wait goes on before it gives up (exit 8); `does` says what it waits for. */
export function waitTimeoutFlag(does: string): Option<'--wait-timeout <duration>'> {
  return sharedFlag('--wait-timeout <duration>', `${does} (default ${DEFAULT_WAIT_TIMEOUT})`);
}

/** `--poll-interval`: the first pause between the reads of a wait; a setting (`edp config`). */
export function pollIntervalFlag(does: string): Option<'--poll-interval <duration>'> {
  return sharedFlag(
    '--poll-interval <duration>',
    `${does} (default ${DEFAULT_POLL_INTERVAL}; env EDP_POLL_INTERVAL, \`edp config set poll_interval\`)`,
  );
}

/**
 * `--concurrency`: how many workspaces a fleet command works on at once; a setting (`edp
 * config`). `auto`'s cap follows what the command does in each workspace (config/defaults.ts).
 */
export function concurrencyFlag(does: string, work: FleetWork): Option<'--concurrency <n>'> {
  return sharedFlag(
    '--concurrency <n>',
    `${does} (default: auto, one per workspace, at most ${autoCap(work)}; env EDP_CONCURRENCY, \`edp config set concurrency\`)`,
  );
}

/** `--all-workspaces`: a fleet command works on every workspace of the agency (shared/workspace-choice.ts). */
export function allWorkspacesFlag(): Option<'--all-workspaces'> {
  return sharedFlag('--all-workspaces', 'every workspace of the agency (or -w 101,102 for some)');
}

/** `-y, --yes`: a verb that asks before it removes or changes something does not ask; `help` where it says more. */
export function yesFlag(help = YES_HELP): Option<'-y, --yes'> {
  return sharedFlag('-y, --yes', help);
}

/**
 * `--secrets-file`: the file of webhook signing secrets (fleet/secrets-file.ts), written by a verb
 * that receives secrets the service shows once (`secrets` says which), read by `webhooks listen`.
 */
export function secretsFileFlag(secrets: string): Option<'--secrets-file <file>'> {
  return sharedFlag(
    '--secrets-file <file>',
    `write ${secrets} to this file (0600) instead of printing it; \`edp webhooks listen --secrets-file\` reads it`,
  );
}

/** `--secrets-file` of `webhooks listen`, which reads the file the verbs above write. */
export function secretsFileReadFlag(help: string): Option<'--secrets-file <file>'> {
  return sharedFlag('--secrets-file <file>', help);
}

/** The `--wait` flags of a verb that starts a run (`extracts run`, `loads run`). */
export function withWaitFlags<A extends unknown[], O extends OptionValues, G extends OptionValues>(
  cmd: Command<A, O, G>,
): Command<A, O & WaitFlags, G> {
  const withFlags = cmd
    .option('--wait', 'follow the run until it ends (exit 1 if it fails)')
    .addOption(waitTimeoutFlag('with --wait: give up after this long, exit 8'))
    .addOption(pollIntervalFlag('with --wait: first pause between reads; it grows by half each time, up to 15 s'));
  // The chain's own type names commander's unexported helper types, which a declaration would
  // spell out nested (exponential in the options): the same options, named.
  return withFlags as unknown as Command<A, O & WaitFlags, G>;
}

/**
 * The options `withWaitFlags` declares, as a verb's options hold them. Spelled out rather than
 * inferred from the chain: the inferred type of a generic command, written out, makes the
 * incremental typecheck's declaration signatures take minutes.
 */
export type WaitFlags = {
  wait?: true | undefined;
  waitTimeout?: string | undefined;
  pollInterval?: string | undefined;
};

/**
 * The flags of a verb that also acts in bulk across workspaces (commands/shared/bulk.ts): `-w IDS` or
 * `--all-workspaces`, `--failed` (`failed` says what tells a failed item for that verb), `--yes` and
 * `--concurrency`.
 */
export function withBulkFlags<A extends unknown[], O extends OptionValues, G extends OptionValues>(
  cmd: Command<A, O, G>,
  failed: string,
): Command<A, O & BulkFlags, G> {
  const withFlags = cmd
    .addOption(allWorkspacesFlag())
    .addOption(sharedFlag('--failed', `only the items whose last run or build failed: ${failed}`))
    .addOption(yesFlag('do not ask before acting on several items (needed when not at a terminal)'))
    .addOption(concurrencyFlag('workspaces read and changed at once', 'changes'));
  return withFlags as unknown as Command<A, O & BulkFlags, G>; // named, as withWaitFlags
}

/** The options `withBulkFlags` declares, as a verb's options hold them (spelled out, as WaitFlags). */
export type BulkFlags = {
  allWorkspaces?: true | undefined;
  failed?: true | undefined;
  yes?: true | undefined;
  concurrency?: string | undefined;
};

/**
 * Template settings (docs/contract-rules.md, Extraction templates, validation), taken by
 * `extract-templates validate` and `preview`, `extracts create`, `update` and `migrate-wide`.
 */
export function withTemplateSettings<A extends unknown[], O extends OptionValues, G extends OptionValues>(
  cmd: Command<A, O, G>,
): Command<A, O & TemplateSettingsFlags, G> {
  const withFlags = cmd
    .option('--fields <names>', 'fields to extract, comma-separated')
    .option('--dynamic-fields <names>', "fields of the connection's dynamic schema (wide templates), comma-separated")
    .option('--additional-params <json>', 'additional parameters as a JSON object')
    .option('--custom-filters <json>', 'custom filters as a JSON list')
    .option('--sync-from-date <date>', 'load history from this date (YYYY-MM-DD); "none" clears it')
    .addOption(renamedFlag('--sync-historical-data <date>'))
    .option('--settings-file <file>', 'template settings as JSON or YAML ("-" for stdin); flags override it');
  return withFlags as unknown as Command<A, O & TemplateSettingsFlags, G>; // named, as withWaitFlags
}

/** The options `withTemplateSettings` declares, as a verb's options hold them (spelled out, as WaitFlags). */
export type TemplateSettingsFlags = {
  fields?: string | undefined;
  dynamicFields?: string | undefined;
  additionalParams?: string | undefined;
  customFilters?: string | undefined;
  syncFromDate?: string | undefined;
  syncHistoricalData?: string | undefined;
  settingsFile?: string | undefined;
};

/**
 * A flag's name of an earlier release, still taken for one release and left out of --help: its
 * value stands for the new flag's (which wins when both are given), with a note on stderr.
 */
export function renamedFlag<F extends string>(flags: F): Option<F> {
  return new Option(flags).hideHelp();
}

/** The new flag's value, else the old name's with a deprecation note naming the new one. */
export function renamedValue(
  ctx: Context,
  value: string | undefined,
  old: { value: string | undefined; flag: string },
  flag: string,
): string | undefined {
  if (old.value === undefined) return value;
  ctx.output.warn(`${old.flag} is deprecated and will be removed in the next release; use ${flag}`);
  return value ?? old.value;
}
