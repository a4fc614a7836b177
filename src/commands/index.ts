import type { Command } from '@commander-js/extra-typings';
import type { App } from './shared/app.js';
import { VALUE_OPTIONS } from '../global-options.js';
import { addHelpCommand, groupHelpToStdout } from './shared/help.js';

/** A top-level command's `command.ts`: declares its verbs (or, for a leaf, itself) on `cmd`. */
type Register = (cmd: Command, app: App) => void;

/**
 * The command tree: every top-level command, its one-line
 * description for `edp --help`, and its folder. Only the `command.ts` of the command being
 * run is loaded; the others are names and descriptions, which is all `edp --help` shows.
 */
const COMMANDS: Array<[name: string, description: string, load: () => Promise<{ register: Register }>]> = [
  ['auth', 'store, check and remove agency credentials', () => import('./auth/command.js')],
  [
    'config',
    'per-profile settings: workspace, base_url, concurrency, poll_interval',
    () => import('./config/command.js'),
  ],
  ['token', 'print a Bearer token for the workspace (cached, renewed on expiry)', () => import('./token/command.js')],
  [
    'workspaces',
    "list and manage the agency's workspaces (agency credentials)",
    () => import('./workspaces/command.js'),
  ],
  ['agency-recipes', 'recipes available to the agency', () => import('./agency-recipes/command.js')],
  [
    'iframe-url',
    'get an embeddable iframe URL for connecting a data source or destination (agency credentials, -w workspace)',
    () => import('./iframe-url/command.js'),
  ],
  ['datasources', 'data sources the workspace can connect', () => import('./datasources/command.js')],
  ['connections', 'connections of a data source in a workspace', () => import('./connections/command.js')],
  ['accounts', 'accounts of a connection (v3.1 ids: the ones recipes accept)', () => import('./accounts/command.js')],
  [
    'links',
    'one-time external authentication links: someone outside the agency connects a data source',
    () => import('./links/command.js'),
  ],
  [
    'extract-templates',
    'extraction templates: the fields a data source offers and their defaults',
    () => import('./extract-templates/command.js'),
  ],
  [
    'extracts',
    "extracts: pull an account's data into a data table, on a schedule or on demand",
    () => import('./extracts/command.js'),
  ],
  [
    'destinations',
    'destinations and destination connections: where loads deliver data',
    () => import('./destinations/command.js'),
  ],
  ['tables', 'data tables: where extracts deliver rows', () => import('./tables/command.js')],
  ['loads', 'loads: deliver a data table to a destination connection', () => import('./loads/command.js')],
  [
    'recipes',
    'automated recipes: templates, create, configure, build, poll, deploy (workspace token)',
    () => import('./recipes/command.js'),
  ],
  [
    'webhooks',
    'webhook endpoints of a workspace, their event types, and a local receiver (workspace token)',
    () => import('./webhooks/command.js'),
  ],
  [
    'roles',
    'custom workspace roles and the permission catalog (agency chief credentials, embedded API enabled)',
    () => import('./roles/command.js'),
  ],
  [
    'api',
    'send a raw request with authentication, error handling and paging done for you',
    () => import('./api/command.js'),
  ],
  [
    'sandbox',
    'run a local emulator of the whole service (in memory; --state FILE to keep it)',
    () => import('./sandbox/command.js'),
  ],
  [
    'export',
    'write the current state of workspaces as a fleet file: recipes, webhook endpoints, custom roles (YAML; --json for JSON)',
    () => import('./export/command.js'),
  ],
  [
    'plan',
    'show what `apply` would change to make the workspaces match a fleet file, and what cannot be done; sends no write',
    () => import('./plan/command.js'),
  ],
  [
    'apply',
    'make the workspaces match a fleet file: shows the plan, asks, then creates, appends, builds and updates (safe to re-run)',
    () => import('./apply/command.js'),
  ],
  [
    'doctor',
    'check workspaces: credentials and token, destination, recipe accounts, webhook endpoints; each finding names its fix',
    () => import('./doctor/command.js'),
  ],
  [
    'freshness',
    "how recent each workspace's data is, per data source: last successful build, its age, what did not deliver",
    () => import('./freshness/command.js'),
  ],
  ['completion', 'print a shell completion script', () => import('./completion/command.js')],
];

export function commandWord(argv: string[]): string | undefined {
  const words: string[] = [];
  for (let i = 0; i < argv.length && words.length < 2; i++) {
    const a = argv[i]!;
    if (a === '--') break;
    if (VALUE_OPTIONS.has(a)) {
      i++;
      continue;
    }
    if (a.startsWith('-')) continue;
    words.push(a);
  }
  // `edp help recipes` shows the recipes help.
  return words[0] === 'help' ? words[1] : words[0];
}

/** Registers the command tree: fully for the command being run (or all, `all`), names only for the rest. */
export async function registerCommands(program: Command, app: App, argv: string[], all = false): Promise<void> {
  const word = commandWord(argv);
  const everything = all || word === 'completion';
  // Each verb's help lists the global options too; the commands below inherit this setting.
  program.configureHelp({ showGlobalOptions: true });
  for (const [name, description, load] of COMMANDS) {
    const cmd = program.command(name).description(description);
    if (everything || name === word) {
      (await load()).register(cmd, app);
    }
  }
  addHelpCommand(program);
  groupHelpToStdout(program);
}
