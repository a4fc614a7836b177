import type { Command } from '@commander-js/extra-typings';
import type { App } from './shared/app.js';
import { addHelpCommand, groupHelpToStdout } from './shared/help.js';

/** A top-level command's `command.ts`: declares its verbs (or, for a leaf, itself) on `cmd`. */
type Register = (cmd: Command, app: App) => void;

/**
 * The command tree (cli-design: Command tree): every top-level command, its one-line
 * description for `edp --help`, and its folder. Only the `command.ts` of the command being
 * run is loaded; the others are names and descriptions, which is all `edp --help` shows.
 */
const COMMANDS: Array<[name: string, description: string, load: () => Promise<{ register: Register }>]> = [
  ['auth', 'store, check and remove agency credentials', () => import('./auth/command.js')],
  [
    'config',
    'per-profile settings: default workspace, service address, concurrency, poll interval',
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
    'get an embeddable iframe URL for connecting a data source or destination',
    () => import('./iframe-url/command.js'),
  ],
  ['datasources', 'data sources available to the workspace', () => import('./datasources/command.js')],
  ['connections', 'connections to data sources', () => import('./connections/command.js')],
  [
    'accounts',
    'accounts of a connection (v3.1), enabled or disabled for extraction',
    () => import('./accounts/command.js'),
  ],
  ['links', 'one-time external authentication links', () => import('./links/command.js')],
  ['extract-templates', 'extraction templates of a data source', () => import('./extract-templates/command.js')],
  ['extracts', 'extractions: create, run, pause, migrate', () => import('./extracts/command.js')],
  ['destinations', 'destinations and destination connections', () => import('./destinations/command.js')],
  ['tables', 'data tables and their delivered fields', () => import('./tables/command.js')],
  ['loads', 'loads of data tables to destinations', () => import('./loads/command.js')],
  ['recipes', 'automated recipes: templates, configure, build, poll, deploy', () => import('./recipes/command.js')],
  ['webhooks', 'webhook endpoints and a local signed-delivery receiver', () => import('./webhooks/command.js')],
  ['roles', 'custom workspace roles and the permission catalog (agency chief)', () => import('./roles/command.js')],
  [
    'api',
    'send a raw request with authentication, error handling and paging done for you',
    () => import('./api/command.js'),
  ],
  ['sandbox', 'run a local emulator of the whole service', () => import('./sandbox/command.js')],
  ['export', 'write the current state of workspaces as a fleet file', () => import('./export/command.js')],
  ['plan', 'show what apply would change to match a fleet file; sends no write', () => import('./plan/command.js')],
  ['apply', 'make the workspaces match a fleet file (safe to re-run)', () => import('./apply/command.js')],
  ['doctor', 'check workspaces for what needs action, each finding with its fix', () => import('./doctor/command.js')],
  ['completion', 'print a shell completion script', () => import('./completion/command.js')],
];

/** Global options that take a value, to find the command word behind them. */
const VALUE_OPTIONS = new Set(['--profile', '--base-url', '-w', '--workspace', '--timeout', '--jq']);

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
