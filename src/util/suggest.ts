import { AsyncLocalStorage } from 'node:async_hooks';
import { shellWord } from './shell.js';

/**
 * Every command the tool suggests (in a hint, a next step, an error, a note) is made here, so
 * that it works when pasted: `edp` and its words, shell-quoted, then the options this run
 * needs to reach the same profile, service and workspace (by where each setting came from).
 * The domain suggests commands too (a deploy's notes, a plan's blocked changes) without knowing
 * the run: the run's options reach it through the async context the run works in.
 * test/commands/suggestions.test.ts parses each suggestion of the sources through the command
 * tree.
 */

export interface SuggestOptions {
  /** the workspace the suggested command acts in */
  workspace?: string | undefined;
  /** variables the command needs set before it: `EDP_WEBHOOK_SECRET=… edp webhooks listen` */
  env?: Record<string, string> | undefined;
}

/** What a pasted command needs of the run that suggests it. */
export interface RunOptions {
  /** global options to repeat: `--profile ops` when a flag or EDP_PROFILE chose the profile, `--base-url URL` given by flag */
  globals: string[];
  /**
   * The workspace a pasted command acts in without `-w`: the profile's default when EDP_WORKSPACE
   * is not set. A suggestion for any other workspace carries `-w`.
   */
  implicitWorkspace: string | undefined;
  /** The run's one workspace and where it was named (`EDP_WORKSPACE`, `profile "ci" setting workspace`), when known. */
  workspace?: { value: string; what: string } | undefined;
  /** Where the run's credentials come from: the variables that hold them, the profile, or nowhere. */
  credentials?: CredentialsOrigin | undefined;
}

export type CredentialsOrigin = 'EDP_TOKEN' | 'EDP_SESSION_ID' | 'EDP_USERNAME' | 'profile' | 'none';

/** Where the credentials of the run in progress come from (undefined outside a run). */
export function runCredentials(): CredentialsOrigin | undefined {
  return current.getStore()?.().credentials;
}

/** The run's one workspace, when it has one. */
export function runWorkspace(): string | undefined {
  return current.getStore()?.().workspace?.value;
}

const current = new AsyncLocalStorage<() => RunOptions>();

/** Runs `body` with the run's options for every suggestion made in it (computed once, when first needed). */
export function withRunOptions<T>(options: () => RunOptions, body: () => T): T {
  let known: RunOptions | undefined;
  return current.run(() => (known ??= safe(options)), body);
}

/** `edp WORDS…` as it must be pasted: words quoted, then the run's global options, then `-w` when it is needed. */
export function suggest(words: readonly string[], opts: SuggestOptions = {}): string {
  const run = current.getStore()?.() ?? { globals: [], implicitWorkspace: undefined };
  const parts = ['edp', ...words, ...run.globals];
  if (opts.workspace !== undefined && opts.workspace !== run.implicitWorkspace) parts.push('-w', opts.workspace);
  const env = Object.entries(opts.env ?? {}).map(([name, value]) => `${name}=${shellWord(value)}`);
  return [...env, ...parts.map(shellWord)].join(' ');
}

/**
 * Where the run's workspace `id` was named, for a message about it: ` (EDP_WORKSPACE)`, ` (the
 * default workspace of profile "ci": \`edp config set workspace ID\` changes it)`; '' when a flag
 * named it or it is not the run's.
 */
export function workspaceOrigin(id: string): string {
  const ws = current.getStore()?.().workspace;
  if (!ws || ws.value !== id || ws.what === '--workspace') return '';
  const profile = /^profile "(.*)" setting workspace$/.exec(ws.what);
  if (profile)
    return ` (the default workspace of profile "${profile[1]}": \`${suggest(['config', 'set', 'workspace', 'ID'])}\` changes it)`;
  return ` (${ws.what})`;
}

/** How a message about an unknown workspace names where it came from, and the command that lists them. */
export function unknownWorkspaceWhere(id: string): { origin: string; list: string } {
  return { origin: workspaceOrigin(id), list: suggest(['workspaces', 'list']) };
}

/** A run whose settings cannot be read (a broken config file) still suggests complete commands. */
function safe(options: () => RunOptions): RunOptions {
  try {
    return options();
  } catch {
    return { globals: [], implicitWorkspace: undefined };
  }
}
