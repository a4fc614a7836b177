import type { Command } from 'commander';
import type { App } from './app.js';
import { addHelpCommand, groupHelpToStdout } from './help.js';

type Register = (program: Command, app: App) => void;

interface Area {
  /** top-level nouns the area registers, with their one-line descriptions for `edp --help` */
  nouns: Array<[string, string]>;
  load: () => Promise<Register>;
}

/**
 * The command tree (cli-design: Command tree), area by area. Only the area of the command
 * being run is loaded; the others appear as names and descriptions, which is all `edp --help`
 * shows. This keeps start-up flat however many commands there are.
 */
const AREAS: Area[] = [
  { nouns: [['auth', 'store, check and remove agency credentials']], load: () => import('./auth/index.js').then((m) => m.registerAuth) },
  { nouns: [['config', 'per-profile settings: default workspace, service address, concurrency, poll interval']], load: () => import('./config/index.js').then((m) => m.registerConfig) },
  { nouns: [['token', 'print a Bearer token for the workspace (cached, renewed on expiry)']], load: () => import('./token.js').then((m) => m.registerToken) },
  {
    nouns: [
      ['workspaces', "list and manage the agency's workspaces (agency credentials)"],
      ['agency-recipes', 'recipes available to the agency'],
    ],
    load: () => import('./workspaces/index.js').then((m) => m.registerWorkspaces),
  },
  { nouns: [['iframe-url', 'get an embeddable iframe URL for connecting a data source or destination']], load: () => import('./iframe-url.js').then((m) => m.registerIframeUrl) },
  {
    nouns: [
      ['datasources', 'data sources available to the workspace'],
      ['connections', 'connections to data sources'],
      ['accounts', 'accounts of a connection (v3.1), enabled or disabled for extraction'],
      ['links', 'one-time external authentication links'],
    ],
    load: () => import('./sources/index.js').then((m) => m.registerSources),
  },
  {
    nouns: [
      ['extract-templates', 'extraction templates of a data source'],
      ['extracts', 'extractions: create, run, pause, migrate'],
      ['destinations', 'destinations and destination connections'],
      ['tables', 'data tables and their delivered fields'],
      ['loads', 'loads of data tables to destinations'],
    ],
    load: () => import('./extraction/index.js').then((m) => m.registerExtraction),
  },
  { nouns: [['recipes', 'automated recipes: templates, configure, build, poll, deploy']], load: () => import('./recipes/index.js').then((m) => m.registerRecipes) },
  { nouns: [['webhooks', 'webhook endpoints and a local signed-delivery receiver']], load: () => import('./webhooks/index.js').then((m) => m.registerWebhooks) },
  { nouns: [['roles', 'custom workspace roles and the permission catalog (agency chief)']], load: () => import('./roles/index.js').then((m) => m.registerRoles) },
  { nouns: [['api', 'send a raw request with authentication, error handling and paging done for you']], load: () => import('./api/index.js').then((m) => m.registerApi) },
  { nouns: [['sandbox', 'run a local emulator of the whole service']], load: () => import('./sandbox/index.js').then((m) => m.registerSandbox) },
  { nouns: [['export', 'write the current state of workspaces as a fleet file']], load: () => import('./export/index.js').then((m) => m.registerExport) },
  { nouns: [['plan', 'show what apply would change to match a fleet file; sends no write']], load: () => import('./plan/index.js').then((m) => m.registerPlan) },
  { nouns: [['apply', 'make the workspaces match a fleet file (safe to re-run)']], load: () => import('./apply/index.js').then((m) => m.registerApply) },
  { nouns: [['doctor', 'check workspaces for what needs action, each finding with its fix']], load: () => import('./doctor/index.js').then((m) => m.registerDoctor) },
  { nouns: [['completion', 'print a shell completion script']], load: () => import('./completion/index.js').then((m) => m.registerCompletion) },
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

/** Registers the command tree: fully for the area being run (or all, `all`), names only for the rest. */
export async function registerCommands(program: Command, app: App, argv: string[], all = false): Promise<void> {
  const word = commandWord(argv);
  const everything = all || word === 'completion';
  // Each verb's help lists the global options too; the commands below inherit this setting.
  program.configureHelp({ showGlobalOptions: true });
  for (const area of AREAS) {
    if (everything || area.nouns.some(([name]) => name === word)) {
      (await area.load())(program, app);
    } else {
      for (const [name, description] of area.nouns) program.command(name).description(description);
    }
  }
  addHelpCommand(program);
  groupHelpToStdout(program);
}
