import { ConfigStore, configDir } from './config/store.js';
import { RunSettings } from './config/resolve.js';
import { suggest } from './util/suggest.js';
import type { IO } from './output/io.js';
import { Output } from './output/output.js';
import { outputFlagsOf } from './output/run-flags.js';
import type { Credentials } from './config/credentials.js';
import type { Service } from './api/service.js';
import type { GlobalOptionValues } from './global-options.js';
import { JqCapture } from './output/jq-capture.js';
import { promptContext } from './output/prompt-streams.js';
import { startIdentityDigest } from './config/identity-digest.js';

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
  private store: ConfigStore | undefined;
  private service: Service | undefined;
  private override: Credentials | undefined;
  /** A workspace operation asked for its workspace: it will look up a workspace token. */
  private workspaceCommand = false;
  /** With --jq, what the command writes to stdout, held for the filter. */
  private readonly jq: JqCapture | undefined;

  constructor(
    readonly io: IO,
    readonly flags: GlobalFlags,
    readonly signal?: AbortSignal,
  ) {
    this.env = io.env;
    this.jq = flags.jq === undefined ? undefined : new JqCapture(io, flags.jq);
    this.output = new Output(this.jq?.outputIO() ?? io, outputFlagsOf(flags, io));
    this.settings = new RunSettings({ flags, env: io.env, profile: (name) => this.config.profile(name) });
  }

  get config(): ConfigStore {
    this.store ??= new ConfigStore(configDir(this.env));
    return this.store;
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
    if (this.workspaceCommand)
      startIdentityDigest(
        () => this.credentials(),
        () => this.config,
      );
    const { runService } = await import('./run-service.js');
    this.service = await runService({
      settings: this.settings,
      credentials: this.credentials(),
      store: this.config,
      output: this.output,
      io: this.io,
      signal: this.signal,
    });
    return this.service;
  }

  /** Prompts, bound to stderr so that stdout stays data. */
  async prompts(): Promise<typeof import('@inquirer/prompts')> {
    return import('@inquirer/prompts');
  }

  promptContext(): { input: IO['stdin']; output: IO['stderr']; signal?: AbortSignal } {
    return promptContext(this.io, this.signal);
  }

  /** Work before the command runs: the --jq expression is compiled, so that a bad one sends nothing. */
  async prepare(): Promise<void> {
    await this.jq?.prepare();
  }

  /** Work after the command ran: what it wrote goes through the --jq filter to stdout. */
  async flushOutput(): Promise<void> {
    await this.jq?.flush();
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
