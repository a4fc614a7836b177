import { ConfigStore, DEFAULT_BASE_URL, checkProfileName, configDir, type Profile } from './config/store.js';
import { UsageError } from './errors.js';
import type { IO } from './output/io.js';
import { Output } from './output/output.js';
import { parseDuration, parseId, parsePositiveInt } from './util/validate.js';
import type { Credentials } from './api/auth.js';
import type { Service } from './api/service.js';
import { VERSION } from './version.js';

/** Global options, as commander parses them (cli-design: Global options). */
export interface GlobalFlags {
  profile?: string;
  baseUrl?: string;
  workspace?: string;
  json?: boolean;
  ndjson?: boolean;
  color?: boolean;
  quiet?: boolean;
  verbose?: boolean;
  input?: boolean;
  timeout?: string;
}


/**
 * What a command works with, built lazily: nothing here touches the disk or the network
 * until a command asks for it, so `--help` stays as cheap as the process start.
 */
export class Context {
  readonly output: Output;
  readonly env: Record<string, string | undefined>;
  readonly profileName: string;
  readonly timeoutMs: number;
  private store: ConfigStore | undefined;
  private service: Service | undefined;
  private override: Credentials | undefined;

  constructor(
    readonly io: IO,
    readonly flags: GlobalFlags,
    readonly signal?: AbortSignal,
  ) {
    this.env = io.env;
    const verbose = !!flags.verbose || io.env.EDP_DEBUG === '1';
    this.output = new Output(io, {
      json: !!flags.json,
      ndjson: !!flags.ndjson,
      quiet: !!flags.quiet,
      verbose,
      color: flags.color !== false,
    });
    this.profileName = checkProfileName(flags.profile ?? io.env.EDP_PROFILE ?? 'default');
    this.timeoutMs = flags.timeout !== undefined ? parseDuration(flags.timeout, '--timeout') : 60_000;
    if (this.timeoutMs <= 0) throw new UsageError('--timeout must be longer than 0');
  }

  get config(): ConfigStore {
    this.store ??= new ConfigStore(configDir(this.env));
    return this.store;
  }

  profile(): Profile {
    return this.config.profile(this.profileName);
  }

  baseUrl(): string {
    const url = this.baseUrlSetting().value;
    try {
      const u = new URL(url);
      if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('scheme');
    } catch {
      throw new UsageError(`--base-url must be an http(s) URL, got "${url}"`);
    }
    return url.replace(/\/+$/, '');
  }

  /** The service address and where it was set: flag, environment, profile or built-in default. */
  baseUrlSetting(): { value: string; source: '--base-url' | 'EDP_BASE_URL' | 'profile' | 'default' } {
    if (this.flags.baseUrl !== undefined) return { value: this.flags.baseUrl, source: '--base-url' };
    if (this.env.EDP_BASE_URL) return { value: this.env.EDP_BASE_URL, source: 'EDP_BASE_URL' };
    const stored = this.profile().base_url;
    if (stored) return { value: stored, source: 'profile' };
    return { value: DEFAULT_BASE_URL, source: 'default' };
  }

  /** The workspace for bearer operations: -w, EDP_WORKSPACE, then the profile's default. */
  workspace(): string | undefined {
    const raw = this.flags.workspace ?? this.env.EDP_WORKSPACE ?? this.profile().workspace;
    return raw === undefined || raw === '' ? undefined : parseId(raw, '--workspace');
  }

  requireWorkspace(): string {
    const ws = this.workspace();
    if (!ws) throw new UsageError('this command needs a workspace: pass -w/--workspace ID or set EDP_WORKSPACE');
    return ws;
  }

  /**
   * The credentials of this run. Credentials from the environment win over the profile, for
   * CI, and replace it whole: with any of EDP_TOKEN, EDP_USERNAME/EDP_PASSWORD or EDP_SESSION_ID
   * set, nothing of the profile's credentials is used, so two identities never mix in one run.
   */
  credentials(): Credentials {
    if (this.override) return this.override;
    const env = this.env;
    const token = env.EDP_TOKEN || undefined;
    const sessionId = env.EDP_SESSION_ID || undefined;
    if (token || sessionId || env.EDP_USERNAME !== undefined || env.EDP_PASSWORD !== undefined) {
      return { username: env.EDP_USERNAME, password: env.EDP_PASSWORD, token, sessionId, source: 'env' };
    }
    const p = this.profile();
    return { username: p.username, password: p.password, sessionId: p.session_id || undefined, source: 'profile' };
  }

  /** Credentials to check before they are stored (`auth login`); call before `api()`. */
  useCredentials(credentials: Credentials): void {
    if (this.service) throw new Error('the service client was built with other credentials');
    this.override = credentials;
  }

  /** Prompts are allowed only for a person at a terminal (cli-design: never prompt in CI). */
  get interactive(): boolean {
    if (this.flags.input === false) return false;
    if (this.env.CI !== undefined && this.env.CI !== '' && this.env.CI !== '0' && this.env.CI !== 'false') return false;
    return !!this.io.stdin.isTTY && !!this.io.stdout.isTTY;
  }

  async api(): Promise<Service> {
    if (this.service) return this.service;
    // Every run that talks to the service reads the config file, even when the environment
    // supplies everything: a file that cannot be used is reported the same way by every command.
    this.config.read();
    const { Service } = await import('./api/service.js');
    const { logRequest } = await import('./output/request-log.js');
    const { retryNoticeText } = await import('./api/retry.js');
    this.service = new Service({
      baseUrl: this.baseUrl(),
      timeoutMs: this.timeoutMs,
      credentials: this.credentials(),
      store: this.config,
      profile: this.profileName,
      signal: this.signal,
      userAgent: `edp/${VERSION}`,
      log: this.output.flags.verbose ? (e) => logRequest(this.output, e) : undefined,
      // A repeat after a busy answer or a dropped connection can wait 30 s: say so (not with --quiet).
      onRetry: (notice) => this.output.info(retryNoticeText(notice)),
      pageConcurrency: this.env.EDP_PAGE_CONCURRENCY ? parsePositiveInt(this.env.EDP_PAGE_CONCURRENCY, 'EDP_PAGE_CONCURRENCY', { max: 32 }) : undefined,
    });
    return this.service;
  }

  /** Prompts, bound to stderr so that stdout stays data. */
  async prompts(): Promise<typeof import('@inquirer/prompts')> {
    return import('@inquirer/prompts');
  }

  promptContext(): { input: IO['stdin']; output: IO['stderr']; signal?: AbortSignal } {
    return { input: this.io.stdin, output: keepOpen(this.io.stderr), ...(this.signal ? { signal: this.signal } : {}) };
  }

  async finish(): Promise<void> {
    if (this.service) await this.service.close();
  }
}

/** The prompt library ends the stream it wrote to when it is done; stderr must stay open for what follows. */
function keepOpen<T extends object>(stream: T): T {
  return new Proxy(stream, {
    get(target, key) {
      if (key === 'end') return () => target;
      const value = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
