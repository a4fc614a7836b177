import { Clock, type ClockMode } from './clock.js';
import { idAfter, type IdKind } from './ids.js';
import type { SandboxOptions } from './options.js';
import { StateFile } from './persistence.js';
import { secret, seededRandom, type SeededRandom } from './random.js';
import type { CoreState, Extract, SandboxEvent, State, Workspace } from './types.js';

export type EventListener = (event: SandboxEvent) => void;

/** The sandbox's in-memory state and what acts on all of it: ids, the clock, events, saving. */
export class Store {
  state: State;
  readonly clock: Clock;
  /** data generation (seeded) */
  readonly random: SeededRandom;
  /** fault injection (seeded separately, so that data does not depend on traffic) */
  readonly faultRandom: SeededRandom;
  private readonly listeners: EventListener[] = [];
  private readonly replaceListeners: Array<() => void> = [];
  /**
   * Starts a run of an extract in the background (set by the extraction area): a paused
   * extract, or one whose connection is deleted or account inactive, never delivers.
   */
  runExtract: (extract: Extract) => void = () => undefined;
  /** The state file with --state. */
  readonly file: StateFile | undefined;
  /** When expired tokens were last pruned (sandbox clock). */
  private prunedAt: number;

  constructor(
    readonly opts: SandboxOptions,
    state: State,
  ) {
    this.state = state;
    this.clock = new Clock(opts.clock);
    if (opts.startTime !== undefined) this.clock.set(opts.startTime, opts.clock);
    this.prunedAt = this.clock.now();
    this.random = seededRandom(opts.seed);
    this.faultRandom = seededRandom(opts.seed * 7919 + 17);
    this.file = opts.stateFile
      ? new StateFile(
          opts.stateFile,
          () => this.state,
          (m) => this.opts.warn(m),
        )
      : undefined;
  }

  /** The next id of a kind, from its range in `ID_RANGES`. */
  nextId(kind: IdKind): number {
    const n = idAfter(kind, this.state.seq[kind]);
    this.state.seq[kind] = n;
    return n;
  }

  secret(bytes = 24): string {
    return secret(bytes);
  }

  workspace(id: number): Workspace | undefined {
    return this.state.workspaces.find((w) => w.id === id);
  }

  onEvent(listener: EventListener): void {
    this.listeners.push(listener);
  }

  /** Records an event the service would emit; the webhook area delivers it to subscribed endpoints. */
  emit(type: string, workspaceId: number | null, shape: string, data: Record<string, string | null>): SandboxEvent {
    const event: SandboxEvent = {
      id: `evt_${this.secret(8)}`,
      type,
      workspace_id: workspaceId,
      shape,
      data,
      occurred_at: this.clock.now(),
    };
    this.state.events.push(event);
    if (this.state.events.length > 5000) this.state.events.splice(0, this.state.events.length - 5000);
    for (const l of this.listeners) l(event);
    return event;
  }

  /** Told when the whole state was replaced (a reset, a snapshot restored): resume its work. */
  onReplace(listener: () => void): void {
    this.replaceListeners.push(listener);
  }

  /**
   * Replaces the whole state and sets the clock (POST /_sandbox/reset, a snapshot restored):
   * the work in progress on the old state is dropped, the areas resume the new state's (as
   * after a start with --state), and with --state the new state is saved as any change is.
   */
  replaceState(state: State, time: number, mode: ClockMode): void {
    this.clock.dropWork();
    this.state = state;
    this.clock.set(time, mode);
    this.prunedAt = this.clock.now();
    for (const l of this.replaceListeners) l();
    this.changed();
  }

  /**
   * Marks the state changed. With --state the change is saved right away, grouped with the
   * other changes made meanwhile; answers wait for it through `saved()`.
   */
  changed(): void {
    this.pruneTokensNowAndThen();
    this.file?.changed();
  }

  /**
   * Resolves once every change made so far is in the state file (written and fsynced);
   * rejects when the save that should have carried them failed. Without --state, at once.
   */
  saved(): Promise<void> {
    return this.file ? this.file.saved() : Promise.resolve();
  }

  /** Waits for the save under way and saves what is left (on close). Reports, never throws. */
  async flush(): Promise<void> {
    await this.saved().catch(() => undefined);
  }

  /**
   * Prunes expired tokens at most once a minute of the sandbox's clock. Until then an expired
   * token still answers "Token expired." rather than "Invalid token." (both 401).
   */
  private pruneTokensNowAndThen(): void {
    const now = this.clock.now();
    if (now - this.prunedAt < 60_000) return;
    this.prunedAt = now;
    this.pruneTokens();
  }

  /**
   * Tokens the service counts as expired (docs/contract-rules.md, Authentication 2: 30 minutes after last use,
   * --token-ttl here).
   */
  pruneTokens(): number {
    const cutoff = this.clock.now() - this.opts.tokenTtl * 1000;
    let pruned = 0;
    for (const [token, record] of Object.entries(this.state.tokens)) {
      if (record.last_used_at <= cutoff) {
        delete this.state.tokens[token];
        pruned++;
      }
    }
    return pruned;
  }
}

/** A fresh state: the core collections; each area creates its own in `init`. */
export function emptyState(): State {
  const core: CoreState = {
    version: 1,
    seq: {},
    agency: {
      id: 1,
      title: 'Sandbox Agency',
      whitelabel_title: 'Sandbox Data Hub',
      flags: { recipe_pipeline: true, external_auth_links: true, can_use_embedded_api: true },
    },
    users: [],
    workspaces: [],
    tokens: {},
    sessions: {},
    agency_recipes: [],
    enabled_recipes: [],
    iframe_sessions: {},
    datasources: [],
    connections: [],
    accounts: [],
    destinations: [],
    destination_connections: [],
    extract_templates: [],
    extracts: [],
    data_tables: [],
    events: [],
  };
  // Until each area's `init` has run, its collections are missing; `startSandbox` runs them all.
  return core as State;
}
