/**
 * The global options, once: `edp --help` and every verb's help list them from here (cli.ts),
 * the command word is found behind those that take a value (commands/index.ts), completion
 * carries those a lookup needs (`context`), and `GlobalFlags` types what a verb receives.
 * Imports nothing: read at every start.
 */
export const GLOBAL_OPTIONS = [
  {
    key: 'profile',
    flags: '--profile <name>',
    help: 'named credential set (env EDP_PROFILE; default "default")',
    context: true,
  },
  {
    key: 'baseUrl',
    flags: '--base-url <url>',
    help: 'service address, overrides the profile (env EDP_BASE_URL)',
    context: true,
  },
  {
    key: 'workspace',
    flags: '-w, --workspace <id>',
    help: 'workspace for workspace-scoped operations (env EDP_WORKSPACE)',
    context: true,
  },
  { key: 'json', flags: '--json', help: 'print the exact API objects as one JSON document' },
  { key: 'ndjson', flags: '--ndjson', help: 'list commands: one JSON item per line, all pages, streamed' },
  {
    key: 'jq',
    flags: '--jq <expr>',
    help: 'filter the JSON output with a jq expression; strings print raw (implies --json)',
  },
  { key: 'color', flags: '--no-color', help: 'no colour (also NO_COLOR; FORCE_COLOR forces it)' },
  { key: 'quiet', flags: '-q, --quiet', help: 'print less: no progress or notes' },
  {
    key: 'verbose',
    flags: '--verbose',
    help: 'log each request on stderr (method, path, status, ms, trace id); also EDP_DEBUG=1',
  },
  { key: 'input', flags: '--no-input', help: 'never prompt (also when CI is set or not on a terminal)' },
  {
    key: 'timeout',
    flags: '--timeout <duration>',
    help: 'per-request timeout, e.g. 30s or 2m (default 60s)',
    context: true,
  },
] as const;

type GlobalOption = (typeof GLOBAL_OPTIONS)[number];

/** What the global options give a verb: a string for those that take a value, else a boolean. */
export type GlobalOptionValues = {
  [O in GlobalOption as O['key']]?: O['flags'] extends `${string}<${string}>` ? string : boolean;
};

/** The names an option is written with: `-w`, `--workspace`. */
export function optionNames(o: GlobalOption): string[] {
  return o.flags
    .split(/[ ,]+/)
    .filter((w) => w.startsWith('-'))
    .map((w) => w.replace(/^--no-/, '--'));
}

/** Global options that take a value, by every name they are written with. */
export const VALUE_OPTIONS: ReadonlySet<string> = new Set(
  GLOBAL_OPTIONS.filter((o) => o.flags.includes('<')).flatMap(optionNames),
);

/** Global options a completion lookup needs to reach the right service, identity and workspace, by name. */
export const CONTEXT_OPTIONS: Readonly<Record<string, GlobalOption['key']>> = Object.fromEntries(
  GLOBAL_OPTIONS.filter((o) => 'context' in o).flatMap((o) => optionNames(o).map((n) => [n, o.key])),
);
