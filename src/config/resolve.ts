import { UsageError } from '../errors.js';
import type { Credentials } from './credentials.js';
import type { GlobalOptionValues } from '../global-options.js';
import { suggest, type CredentialsOrigin, type RunOptions } from '../util/suggest.js';
import { parseDuration, parseId, parseIdList } from '../util/validate.js';
import { AUTO_CONCURRENCY, DEFAULT_WAIT_TIMEOUT } from './defaults.js';
import { SETTINGS, storedSetting, type ResolvedSetting, type SettingKey } from './settings.js';
import { checkProfileName, type Profile } from './store.js';

/**
 * The settings of one run, each resolved once and the same way for every verb: its flag, then
 * its environment variable, then the profile (`edp config set`), then the built-in default
 * (docs/guide.md, Settings). Verbs receive typed values that say where each came from (`what`
 * names it in messages: `--workspace`, `EDP_WORKSPACE`, `profile "ci" setting workspace`); no
 * verb reads a flag, a variable or the profile for a setting itself
 * (test/commands/settings-sources.test.ts holds them to it).
 */

/** Where a setting's value came from. */
export type SettingOrigin = 'flag' | 'env' | 'profile' | 'default';

/** A setting's value, where it came from, and that place's name for messages. */
export interface Resolved<T> {
  value: T;
  origin: SettingOrigin;
  what: string;
}

/** What a run's settings are read from. */
export interface SettingsInput {
  /** the global options as parsed */
  flags: GlobalOptionValues;
  env: Record<string, string | undefined>;
  /** the profile's stored values, read only when a setting falls through to it */
  profile: (name: string) => Profile;
}

/** The workspaces a verb that spans workspaces works on: some, or every one of the agency. */
export type WorkspaceScope = string[] | 'all';

/** How a wait is timed: its deadline and first pause, checked. */
export interface WaitTiming {
  timeoutMs: number;
  /** the deadline as given, for messages: `30m` */
  timeoutText: string;
  intervalMs: number;
}

/** Whether a verb waits only on request: `--wait` (a build, a run) or `--watch` (`recipes status`). */
export interface WaitGate {
  flag: '--wait' | '--watch';
  given: boolean;
}

export class RunSettings {
  /** `--profile`, then EDP_PROFILE, then `default`. */
  readonly profile: Resolved<string>;
  /** `--timeout`, then 60 s. */
  readonly timeout: Resolved<number>;
  private readonly flags: GlobalOptionValues;
  private readonly env: Record<string, string | undefined>;
  private readonly readProfile: (name: string) => Profile;

  constructor(input: SettingsInput) {
    this.flags = input.flags;
    this.env = input.env;
    this.readProfile = input.profile;
    this.profile =
      input.flags.profile !== undefined
        ? { value: checkProfileName(input.flags.profile), origin: 'flag', what: '--profile' }
        : nonEmpty(input.env.EDP_PROFILE) !== undefined
          ? { value: checkProfileName(input.env.EDP_PROFILE!), origin: 'env', what: 'EDP_PROFILE' }
          : { value: 'default', origin: 'default', what: 'the default profile' };
    if (input.flags.timeout !== undefined) {
      const ms = parseDuration(input.flags.timeout, '--timeout');
      if (ms <= 0) throw new UsageError('--timeout must be longer than 0');
      this.timeout = { value: ms, origin: 'flag', what: '--timeout' };
    } else this.timeout = { value: 60_000, origin: 'default', what: 'the default --timeout' };
  }

  /** The profile's stored values. */
  storedProfile(): Profile {
    return this.readProfile(this.profile.value);
  }

  /** How messages name a value the profile gave. */
  profileWhat(key: SettingKey): string {
    return `profile "${this.profile.value}" setting ${key}`;
  }

  /**
   * A setting of `edp config` and where it came from, as given: its flag (the global option, or
   * `flag`, the value of the verb's option that stands for it: `--concurrency`,
   * `--poll-interval`), its variable, the profile (checked, as a hand-edited file may hold
   * anything), or the built-in default.
   */
  setting(key: SettingKey, flag?: string): ResolvedSetting {
    const spec = SETTINGS[key];
    const global = GLOBAL_FLAG[key];
    const flagValue = flag ?? (global === undefined ? undefined : this.flags[global]);
    if (flagValue !== undefined) return { key, value: flagValue, source: spec.flag };
    const envValue = nonEmpty(this.env[spec.env]);
    if (envValue !== undefined) return { key, value: envValue, source: spec.env };
    const stored = storedSetting(this.storedProfile(), key, this.profile.value);
    if (stored !== undefined) return { key, value: stored, source: 'profile' };
    return { key, value: spec.default, source: 'default' };
  }

  /** A setting as `setting` finds it, checked by its rule whatever its source; a bad value names where it came from. */
  checkedSetting(key: SettingKey, flag?: string): ResolvedSetting & { what: string } {
    const { value, source } = this.setting(key, flag);
    const what = source === 'profile' ? this.profileWhat(key) : source;
    return { key, value: value === undefined ? undefined : SETTINGS[key].check(value, what), source, what };
  }

  private resolved(key: SettingKey, flag?: string): Resolved<string | undefined> {
    const s = this.checkedSetting(key, flag);
    return { value: s.value, origin: settingOrigin(s.source), what: s.what };
  }

  /**
   * The token the sandbox's controls require: `--control-token` of `edp sandbox`, else
   * EDP_SANDBOX_TOKEN (which `edp sandbox trigger` sends); undefined when neither is set.
   */
  sandboxControlToken(flag?: string): { value: string; what: string } | undefined {
    if (flag !== undefined) return { value: flag, what: '--control-token' };
    const env = nonEmpty(this.env.EDP_SANDBOX_TOKEN);
    return env === undefined ? undefined : { value: env, what: 'EDP_SANDBOX_TOKEN' };
  }

  /** The service's address, checked, without a trailing slash. */
  baseUrl(): Resolved<string> {
    const s = this.resolved('base_url');
    return { ...s, value: s.value!.trim().replace(/\/+$/, '') };
  }

  /**
   * The workspace of a verb that acts in one: `-w`, EDP_WORKSPACE, then the profile's default;
   * undefined when none names one. A list names several workspaces, which such a verb cannot
   * act in: refused, naming where it came from.
   */
  workspace(): Resolved<string> | undefined {
    const bound = this.tokenWorkspace();
    const given = this.givenWorkspaces();
    if (given) {
      if (given.value.length > 1)
        throw new UsageError(
          `${given.what} names ${given.value.length} workspaces (${given.value.join(',')}); this command acts in one: name one id`,
        );
      if (bound !== undefined && given.origin === 'flag' && given.value[0] !== bound)
        throw tokenElsewhere(bound, given);
      return { ...given, value: given.value[0]! };
    }
    return this.defaultWorkspace();
  }

  /** The workspace of a verb that acts in one, or a usage error saying how to name it. */
  requireWorkspace(): Resolved<string> {
    const ws = this.workspace();
    if (!ws)
      throw new UsageError(
        `this command needs a workspace: pass -w/--workspace ID, set EDP_WORKSPACE, or make one the default with \`${suggest(['config', 'set', 'workspace', 'ID'])}\``,
      );
    return ws;
  }

  /**
   * The workspaces of a verb that spans workspaces (`recipes status`, `doctor`, `export`,
   * `recipes deploy`): `-w IDS`, EDP_WORKSPACE (the same forms), or `--all-workspaces`. The
   * profile's default workspace is a default for single-workspace verbs only and never chooses
   * them; undefined when nothing names them (the verb then asks, or refuses).
   */
  workspaceScope(opts: { allWorkspaces?: boolean | undefined }): Resolved<WorkspaceScope> | undefined {
    const bound = this.tokenWorkspace();
    if (opts.allWorkspaces) {
      if (this.flags.workspace !== undefined)
        throw new UsageError('pass either -w/--workspace or --all-workspaces, not both');
      if (bound !== undefined)
        throw new UsageError(
          `--all-workspaces cannot be used with EDP_TOKEN, a token of workspace ${bound} alone: unset EDP_TOKEN to work across the agency with its credentials`,
        );
      return { value: 'all', origin: 'flag', what: '--all-workspaces' };
    }
    const given = this.givenWorkspaces();
    if (given && bound !== undefined && given.origin === 'flag' && (given.value.length > 1 || given.value[0] !== bound))
      throw tokenElsewhere(bound, given);
    return given;
  }

  /** `workspaceScope`, or a usage error naming the ways to give it (and the profile's default, which it does not take). */
  requireWorkspaceScope(opts: { allWorkspaces?: boolean | undefined }): Resolved<WorkspaceScope> {
    const scope = this.workspaceScope(opts);
    if (scope) return scope;
    throw new UsageError(
      `name the workspaces: pass -w/--workspace ID[,ID…], set EDP_WORKSPACE, or pass --all-workspaces${this.unusedDefaultNote()}`,
    );
  }

  /**
   * For a verb that spans workspaces and was given none: ` (the default workspace 101 of profile
   * "default" is for single-workspace commands: -w 101 names it here)`, or '' without a default.
   */
  unusedDefaultNote(): string {
    let stored: Resolved<string> | undefined;
    try {
      stored = this.defaultWorkspace();
    } catch {
      stored = undefined;
    }
    return stored
      ? ` (the default workspace ${stored.value} of profile "${this.profile.value}" is for single-workspace commands: -w ${stored.value} names it here)`
      : '';
  }

  /**
   * The workspaces a fleet file is narrowed to (`plan`, `apply`, `export`'s file): `-w IDS` or
   * EDP_WORKSPACE; undefined for all the file names. The profile's default never narrows a file.
   */
  fleetScope(): Resolved<string[]> | undefined {
    const scope = this.workspaceScope({});
    return scope && scope.value !== 'all' ? { ...scope, value: scope.value } : undefined;
  }

  /**
   * EDP_TOKEN is bound to one workspace (contract, Authentication), which the tool cannot read
   * from the token: it is used only with EDP_WORKSPACE naming that one workspace. Undefined
   * without EDP_TOKEN; a usage error when the token is set without its workspace.
   */
  tokenWorkspace(): string | undefined {
    const token = nonEmpty(this.env.EDP_TOKEN);
    if (token === undefined) return undefined;
    // Sent as it is in a header: a line break or a control character could not be sent at all.
    if (/[^\t\x20-\x7e\x80-\xff]/.test(token))
      throw new UsageError('EDP_TOKEN holds a character a header cannot carry (a line break, a control character)');
    const ws = nonEmpty(this.env.EDP_WORKSPACE);
    if (ws === undefined)
      throw new UsageError(
        'EDP_TOKEN is the token of one workspace, which cannot be read from the token: set EDP_WORKSPACE to that workspace id as well (`edp -w ID token --env` prints both), or unset EDP_TOKEN',
      );
    const ids = parseIdList(ws, 'EDP_WORKSPACE');
    if (ids.length > 1)
      throw new UsageError(
        `EDP_WORKSPACE names ${ids.length} workspaces (${ids.join(',')}) and EDP_TOKEN is the token of one: set EDP_WORKSPACE to the token's workspace alone`,
      );
    return ids[0]!;
  }

  /**
   * The credentials of this run. Credentials from the environment win over the profile, for
   * CI, and replace it whole: with any of EDP_TOKEN, EDP_USERNAME/EDP_PASSWORD or EDP_SESSION_ID
   * set, nothing of the profile's credentials is used, so two identities never mix in one run.
   */
  credentials(): Credentials {
    const env = this.env;
    const token = nonEmpty(env.EDP_TOKEN);
    if (token !== undefined) this.tokenWorkspace();
    const sessionId = nonEmpty(env.EDP_SESSION_ID);
    if (token || sessionId || env.EDP_USERNAME !== undefined || env.EDP_PASSWORD !== undefined) {
      return { username: env.EDP_USERNAME, password: env.EDP_PASSWORD, token, sessionId, source: 'env' };
    }
    const p = this.storedProfile();
    return { username: p.username, password: p.password, sessionId: p.session_id || undefined, source: 'profile' };
  }

  /** Workspaces worked on at once: a number, or undefined for `auto` (the fleet's size decides). */
  concurrency(flag: string | undefined): Resolved<number | undefined> {
    const s = this.resolved('concurrency', flag);
    return { ...s, value: s.value === AUTO_CONCURRENCY ? undefined : Number(s.value) };
  }

  /** The first pause between a wait's reads. */
  pollInterval(flag: string | undefined): Resolved<number> {
    const s = this.resolved('poll_interval', flag);
    return { ...s, value: parseDuration(s.value!, s.what) };
  }

  /**
   * How a wait is timed, checked before anything is sent, the same way for every verb that
   * waits: `--wait-timeout` (then 30m) longer than 0, the first pause from `pollInterval`. A
   * verb that waits only on request (`gate`) refuses its timing flags without that request.
   */
  waitTiming(
    flags: { waitTimeout?: string | undefined; pollInterval?: string | undefined },
    gate?: WaitGate,
  ): WaitTiming | undefined {
    if (gate && !gate.given) {
      if (flags.waitTimeout !== undefined) throw new UsageError(`--wait-timeout works with ${gate.flag}`);
      if (flags.pollInterval !== undefined) throw new UsageError(`--poll-interval works with ${gate.flag}`);
      return undefined;
    }
    const timeoutText = flags.waitTimeout ?? DEFAULT_WAIT_TIMEOUT;
    const timeoutMs = parseDuration(timeoutText, '--wait-timeout');
    if (timeoutMs <= 0) throw new UsageError(`--wait-timeout must be longer than 0, got "${timeoutText}"`);
    return { timeoutMs, timeoutText, intervalMs: this.pollInterval(flags.pollInterval).value };
  }

  /**
   * What a command this run suggests needs to work when pasted (util/suggest.ts): the profile
   * when a flag or EDP_PROFILE chose it, the service's address when a flag gave it (a variable
   * or the profile gives it to the pasted command too), and the workspace a pasted command acts
   * in without `-w`: the profile's default, unless EDP_WORKSPACE is set.
   */
  pastedOptions(): RunOptions {
    const globals: string[] = [];
    if (this.profile.origin !== 'default') globals.push('--profile', this.profile.value);
    if (this.flags.baseUrl !== undefined) globals.push('--base-url', this.flags.baseUrl);
    let implicitWorkspace: string | undefined;
    if (nonEmpty(this.env.EDP_WORKSPACE) === undefined) {
      try {
        implicitWorkspace = this.defaultWorkspace()?.value;
      } catch {
        implicitWorkspace = undefined;
      }
    }
    let workspace: Resolved<string> | undefined;
    try {
      workspace = this.workspace();
    } catch {
      workspace = undefined;
    }
    let credentials: CredentialsOrigin | undefined;
    try {
      const c = this.credentials();
      credentials = c.token
        ? 'EDP_TOKEN'
        : c.source === 'env'
          ? c.sessionId
            ? 'EDP_SESSION_ID'
            : 'EDP_USERNAME'
          : c.username || c.sessionId
            ? 'profile'
            : 'none';
    } catch {
      credentials = undefined;
    }
    return {
      globals,
      implicitWorkspace,
      workspace: workspace && { value: workspace.value, what: workspace.what },
      credentials,
    };
  }

  /** `-w` or EDP_WORKSPACE, as a list of ids; undefined when neither is given. */
  private givenWorkspaces(): Resolved<string[]> | undefined {
    if (this.flags.workspace !== undefined)
      return { value: parseIdList(this.flags.workspace, '--workspace'), origin: 'flag', what: '--workspace' };
    const env = nonEmpty(this.env.EDP_WORKSPACE);
    if (env !== undefined) return { value: parseIdList(env, 'EDP_WORKSPACE'), origin: 'env', what: 'EDP_WORKSPACE' };
    return undefined;
  }

  /** The profile's default workspace (`edp config set workspace`), checked; undefined when it has none. */
  defaultWorkspace(): Resolved<string> | undefined {
    const stored = storedSetting(this.storedProfile(), 'workspace', this.profile.value);
    if (stored === undefined) return undefined;
    const what = this.profileWhat('workspace');
    return { value: parseId(stored, what), origin: 'profile', what };
  }
}

/** The global option that stands for a setting (commander's camel case); the others are verbs' options. */
const GLOBAL_FLAG: Partial<Record<SettingKey, 'workspace' | 'baseUrl'>> = {
  workspace: 'workspace',
  base_url: 'baseUrl',
};

/** The kind of place a setting came from, by the name of its source. */
function settingOrigin(source: string): SettingOrigin {
  if (source === 'profile' || source === 'default') return source;
  return source.startsWith('-') ? 'flag' : 'env';
}

/** A variable set to the empty string counts as unset, as a shell's `VAR= cmd` means. */
function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

function tokenElsewhere(bound: string, given: Resolved<string[]>): UsageError {
  const named = given.value.length > 1 ? `workspaces ${given.value.join(',')}` : `workspace ${given.value[0]}`;
  return new UsageError(
    `EDP_TOKEN is the token of workspace ${bound} (EDP_WORKSPACE) and acts there alone; ${given.what} names ${named}: unset EDP_TOKEN to act in other workspaces with the agency's credentials`,
  );
}
