import { ConfigStore, configDir, type Profile } from './config/store.js';
import type { ResolvedSetting, SettingKey } from './config/settings.js';
import { RunSettings } from './config/resolve.js';
import { suggest, type RunOptions } from './util/suggest.js';
import { UsageError } from './errors.js';
import type { IO, OutStream } from './output/io.js';
import { Output } from './output/output.js';
import { parsePositiveInt } from './util/validate.js';
import type { Credentials } from './config/credentials.js';
import type { Service } from './api/service.js';
import { VERSION } from './version.js';
import { Writable } from 'node:stream';
import { terminalSafe } from './output/terminal-text.js';
import type { GlobalOptionValues } from './global-options.js';

/** What a verb's context is built from: the global options (src/global-options.ts), nothing of the verb's own. */
export type GlobalFlags = GlobalOptionValues;

/**
 * What a command works with, built lazily: nothing here touches the disk or the network
 * until a command asks for it, so `--help` stays as cheap as the process start.
 */
export class Context {
  readonly output: Output;
  readonly env: Record<string, string | undefined>;
  /** The run's settings, each resolved once (config/resolve.ts). */
  readonly settings: RunSettings;
  readonly profileName: string;
  readonly timeoutMs: number;
  private store: ConfigStore | undefined;
  private service: Service | undefined;
  private override: Credentials | undefined;
  /** A workspace operation asked for its workspace: it will look up a workspace token. */
  private workspaceCommand = false;
  /** What the command wrote to stdout, held for the --jq filter. */
  private readonly jqCapture: string[] | undefined;

  constructor(
    readonly io: IO,
    readonly flags: GlobalFlags,
    readonly signal?: AbortSignal,
  ) {
    this.env = io.env;
    const verbose = !!flags.verbose || io.env.EDP_DEBUG === '1';
    let outputIO = io;
    if (flags.jq !== undefined) {
      // The command writes its JSON document as usual; the filter runs on it once the command ends.
      const captured: string[] = [];
      this.jqCapture = captured;
      // stdin stays a getter: it is created only when the command reads it.
      outputIO = {
        get stdin() {
          return io.stdin;
        },
        stdout: captureStream(captured),
        stderr: io.stderr,
        env: io.env,
        now: io.now,
      };
    }
    this.output = new Output(outputIO, {
      // --jq implies JSON output; with --ndjson it filters each line's item.
      json: !!flags.json || (flags.jq !== undefined && !flags.ndjson),
      ndjson: !!flags.ndjson,
      // --jq alone at a terminal: a person reads the errors, as text.
      jsonErrors: !!flags.json || !!flags.ndjson || (flags.jq !== undefined && !io.stderr.isTTY),
      quiet: !!flags.quiet,
      verbose,
      color: flags.color !== false,
    });
    this.settings = new RunSettings({ flags, env: io.env, profile: (name) => this.config.profile(name) });
    this.profileName = this.settings.profile.value;
    this.timeoutMs = this.settings.timeout.value;
  }

  get config(): ConfigStore {
    this.store ??= new ConfigStore(configDir(this.env));
    return this.store;
  }

  profile(): Profile {
    return this.config.profile(this.profileName);
  }

  /** The service's address, checked, without a trailing slash. */
  baseUrl(): string {
    return this.settings.baseUrl().value;
  }

  /** The service address and where it was set: flag, environment, profile or built-in default. */
  baseUrlSetting(): { value: string; source: string } {
    const { value, source } = this.settings.setting('base_url');
    return { value: value!, source };
  }

  /** A setting of `edp config` and where it came from (RunSettings.setting). */
  setting(key: SettingKey, flag?: string): ResolvedSetting {
    return this.settings.setting(key, flag);
  }

  /** A setting, checked by its rule whatever its source (RunSettings.checkedSetting). */
  checkedSetting(key: SettingKey, flag?: string): ResolvedSetting & { what: string } {
    return this.settings.checkedSetting(key, flag);
  }

  /**
   * A command to suggest, as it must be pasted to work (util/suggest.ts): `edp WORDS` with the
   * `--profile`, `--base-url` and `-w` this run needs; `-w WS` among the words names the
   * workspace, else it is this run's.
   */
  hint(...words: string[]): string {
    const at = words.indexOf('-w');
    if (at >= 0) return suggest([...words.slice(0, at), ...words.slice(at + 2)], { workspace: words[at + 1] });
    let workspace: string | undefined;
    try {
      workspace = this.settings.workspace()?.value;
    } catch {
      workspace = undefined;
    }
    return suggest(words, { workspace });
  }

  /** What a command suggested by this run needs to work when pasted (RunSettings.pastedOptions). */
  runOptions(): RunOptions {
    return this.settings.pastedOptions();
  }

  /** The workspace of a verb that acts in one: -w, EDP_WORKSPACE, then the profile's default. */
  workspace(): string | undefined {
    return this.settings.workspace()?.value;
  }

  requireWorkspace(): string {
    const ws = this.settings.requireWorkspace().value;
    this.workspaceCommand = true;
    return ws;
  }

  /** The credentials of this run (RunSettings.credentials). */
  credentials(): Credentials {
    if (this.override) return this.override;
    return this.settings.credentials();
  }

  /** Credentials to check before they are stored (`auth login`); call before `api()`. */
  useCredentials(credentials: Credentials): void {
    if (this.service) throw new Error('the service client was built with other credentials');
    this.override = credentials;
  }

  /** The run's clock (IO.now; real time when not given), as Output measures relative times on it. */
  now(): number {
    return this.output.now();
  }

  /** Prompts are allowed only for a person at a terminal: never in CI, never off a terminal. */
  get interactive(): boolean {
    if (this.flags.input === false) return false;
    if (this.env.CI !== undefined && this.env.CI !== '' && this.env.CI !== '0' && this.env.CI !== 'false') return false;
    return !!this.io.stdout.isTTY && !!this.io.stdin.isTTY;
  }

  async api(): Promise<Service> {
    if (this.service) return this.service;
    // Every run that talks to the service reads the config file, even when the environment
    // supplies everything: a file that cannot be used is reported the same way by every command.
    this.config.read();
    if (this.workspaceCommand) this.startIdentityDigest();
    const { Service } = await import('./api/service.js');
    const { retryNoticeText } = await import('./api/retry.js');
    // The request log is loaded only for --verbose (or EDP_DEBUG=1).
    const logRequest = this.output.flags.verbose ? (await import('./output/request-log.js')).logRequest : undefined;
    (await import('./output/clear-text.js')).warnIfSentInClear(this.output, this.baseUrl(), this.credentials());
    this.service = new Service({
      baseUrl: this.baseUrl(),
      timeoutMs: this.timeoutMs,
      credentials: this.credentials(),
      store: this.config,
      profile: this.profileName,
      signal: this.signal,
      userAgent: `edp/${VERSION}`,
      log: logRequest ? (e) => logRequest(this.output, e) : undefined,
      // A repeat after a busy answer or a dropped connection can wait 30 s: say so (not with --quiet).
      onRetry: (notice) => this.output.info(retryNoticeText(notice)),
      pageConcurrency: this.env.EDP_PAGE_CONCURRENCY
        ? parsePositiveInt(this.env.EDP_PAGE_CONCURRENCY, 'EDP_PAGE_CONCURRENCY', { max: 32 })
        : undefined,
      maxResponseBytes: this.env.EDP_MAX_RESPONSE_MB
        ? parsePositiveInt(this.env.EDP_MAX_RESPONSE_MB, 'EDP_MAX_RESPONSE_MB', { max: 4096 }) * 1024 * 1024
        : undefined,
      // HTTPS_PROXY, HTTP_PROXY, NO_PROXY (src/http/proxy.ts)
      env: this.env,
      sleep: this.io.sleep,
    });
    return this.service;
  }

  /**
   * A workspace operation with a user name and password from the environment looks up its
   * token in the cache, keyed by a slow digest of the password (config/token-cache.ts). The
   * digest (and the file's salt, if this is the first token) starts when a command that asked
   * for its workspace builds its client, on another thread, so that it overlaps loading the
   * client rather than following it (and a command refused for bad input never starts it); the
   * lookup later finds it computed or under way. Any failure is left for the lookup to meet and
   * report.
   */
  private startIdentityDigest(): void {
    try {
      const creds = this.credentials();
      if (creds.token || creds.sessionId || !creds.username || !creds.password) return;
      const config = this.config;
      void import('./config/token-cache.js')
        .then(({ identityKind, identityOf }) =>
          // Only the slow digest is worth starting early. A new file's salt is being written
          // meanwhile: the digest starts with it, before the write's fsync, and the lookup
          // digests again only if another process wrote one first.
          identityKind(creds.source) === 'env'
            ? identityOf('env', config.expectedTokenKeySalt(), creds.username!, creds.password!)
            : undefined,
        )
        .catch(() => undefined);
    } catch {
      // an unreadable configuration file is reported by the command
    }
  }

  /** Prompts, bound to stderr so that stdout stays data. */
  async prompts(): Promise<typeof import('@inquirer/prompts')> {
    return import('@inquirer/prompts');
  }

  promptContext(): { input: IO['stdin']; output: IO['stderr']; signal?: AbortSignal } {
    return { input: this.io.stdin, output: keepOpen(this.io.stderr), ...(this.signal ? { signal: this.signal } : {}) };
  }

  /** Work before the command runs: the --jq expression is compiled, so that a bad one sends nothing. */
  async prepare(): Promise<void> {
    if (this.flags.jq === undefined) return;
    if (this.flags.jq.trim() === '') throw new UsageError('--jq needs a jq expression, such as .id or .[].title');
    const { checkJqFilter } = await import('./output/jq.js');
    await checkJqFilter(this.flags.jq);
  }

  /** Work after the command ran: what it wrote goes through the --jq filter to stdout. */
  async flushOutput(): Promise<void> {
    if (this.jqCapture === undefined || this.flags.jq === undefined) return;
    const text = this.jqCapture.splice(0).join('');
    if (text.trim() === '') return;
    const { runJqFilter } = await import('./output/jq.js');
    const result = await runJqFilter(this.flags.jq, text, this.io.stderr);
    this.io.stdout.write(this.io.stdout.isTTY ? terminalSafe(result) : result);
  }

  /** Whether this run has sent the service a request that may change something. */
  get changedSomething(): boolean {
    return this.service?.client.changesSent ?? false;
  }

  /** Ends the run's work: connections closed, every change to the configuration file written. */
  async finish(): Promise<void> {
    try {
      if (this.service) await this.service.close();
    } finally {
      await this.store?.settled();
    }
  }
}

/** A stdout stand-in that keeps what is written, in order. */
function captureStream(into: string[]): OutStream {
  return new Writable({
    decodeStrings: false,
    write(chunk: string | Buffer, _encoding, done) {
      into.push(typeof chunk === 'string' ? chunk : chunk.toString('utf8'));
      done();
    },
  });
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
