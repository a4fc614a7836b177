import { nodeCrypto } from '../util/crypto.js';
import type { Received } from '../contract/answers.js';
import type { Sent, tokenRequest } from '../contract/requests.js';
import { join } from 'node:path';
import { suggest, unknownWorkspaceWhere } from '../util/suggest.js';
import { ApiError, AuthRequiredError, UnknownWorkspaceError, UsageError } from '../errors.js';
import type { Credentials } from '../config/credentials.js';
import { ConfigFileError, type ConfigFile, type ConfigStore } from '../config/store.js';
import { acquireLock } from '../config/lock.js';
import {
  cachedEntry,
  entriesOf,
  identityKind,
  identityOf,
  issuanceLockName,
  profileIdentity,
  pruneExpired,
  serviceKey,
  tokenCacheKey,
  type CachedToken,
  type TokenCacheEntry,
} from '../config/token-cache.js';
import { jsonInteger } from '../util/json.js';
import type { AuthKind } from '../contract/operations.js';
import { requestFor } from './operation.js';

/** A token expires 30 minutes after its last use (docs/contract-rules.md, Authentication rule 2). */
export const TOKEN_LIFETIME_MS = 30 * 60_000;
/** Treat a token as expired this much early: clocks differ, and the request takes time. */
const EXPIRY_MARGIN_MS = 60_000;
/** The cached last-use time is rewritten at most this often, so most runs do not write the file. */
const TOUCH_INTERVAL_MS = 60_000;
/**
 * How long a run waits for another process that is issuing a token for the same service,
 * identity and workspace (it then reuses that token); past this it asks for its own.
 */
const ISSUANCE_WAIT_MS = 10_000;
/** An issuance lock this old was left by a process that died on another host. */
const ISSUANCE_STALE_MS = 120_000;

export interface CredentialAuthOptions {
  credentials: Credentials;
  /** the service address the tokens are for */
  baseUrl: string;
  store?: ConfigStore | undefined;
  profile: string;
  now?: (() => number) | undefined;
}

/**
 * What auth asks of the transport: the one request it sends itself, a token's issuance. The
 * client that asks auth for headers passes itself in as this, so auth depends on no client
 * module (the client depends on auth only through AuthProvider, which it declares).
 */
export interface TokenRequester {
  request<T>(spec: ReturnType<typeof requestFor>): Promise<{ data: T }>;
}

export function tokenExpiresAt(t: CachedToken): number {
  return t.last_used_at + TOKEN_LIFETIME_MS;
}

export function tokenIsFresh(t: CachedToken | undefined, now: number): t is CachedToken {
  return !!t && tokenExpiresAt(t) - EXPIRY_MARGIN_MS > now;
}

/** A cookie's value, as RFC 6265 allows it (cookie-octet): visible ASCII but `"`, `,`, `;`, `\` and space. */
const COOKIE_VALUE = /^[\x21\x23-\x2b\x2d-\x3a\x3c-\x5b\x5d-\x7e]+$/;

export function basicHeader(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}`;
}

/**
 * Authentication per operation: Basic for agency operations, a workspace token (or a cookie
 * session) for workspace operations. Tokens are issued per workspace and cached in the config
 * file under (service address, identity, workspace): a run uses only tokens issued to its own
 * credentials at its own service. The cache keeps each token's last-use time, so runs reuse
 * it; concurrent runs that need the same token wait for one of them to issue it; a token the
 * service refuses is re-issued once. It is the client's AuthProvider (src/api/client.ts), checked
 * where the Service hands it to the client.
 */
export class CredentialAuth {
  private readonly creds: Credentials;
  private readonly store: ConfigStore | undefined;
  private readonly profile: string;
  private readonly now: () => number;
  readonly service: string;
  private readonly pending = new Map<string, Promise<string>>();
  /** Tokens in use by this run, by workspace: copies, never objects of the store's snapshot. */
  private readonly live = new Map<string, CachedToken>();
  /** What the file held for each live token when last read or written: tells what changed. */
  private readonly saved = new Map<string, CachedToken>();
  private identityPromise: Promise<string> | undefined;
  /** The file cannot be written: tokens are kept for this run only. */
  private cacheOff = false;

  constructor(opts: CredentialAuthOptions) {
    this.creds = opts.credentials;
    this.store = opts.store;
    this.profile = opts.profile;
    this.now = opts.now ?? Date.now;
    this.service = serviceKey(opts.baseUrl);
  }

  hasBasic(): boolean {
    return !!(this.creds.username && this.creds.password);
  }

  async headers(
    kind: AuthKind,
    workspaceId: string | undefined,
    client: TokenRequester,
  ): Promise<Record<string, string>> {
    if (kind === 'none') return {};
    if (kind === 'basic') return { authorization: this.basic() };
    if (this.creds.token) return { authorization: `Bearer ${this.creds.token}` };
    if (this.creds.sessionId) {
      // A value with `;` or a space would add cookies of its own (`a; b=1`): refused, nothing sent.
      if (!COOKIE_VALUE.test(this.creds.sessionId))
        throw new UsageError(
          `${this.creds.source === 'env' ? 'EDP_SESSION_ID' : `profile "${this.profile}" session_id`} is not a cookie value: it cannot hold a space, a quote, a comma, a semicolon, a backslash or a control character`,
        );
      return {
        cookie: `dts_session_id=${this.creds.sessionId}`,
        'x-im-workspace-id': this.requireWorkspace(workspaceId),
      };
    }
    return { authorization: `Bearer ${await this.token(this.requireWorkspace(workspaceId), client)}` };
  }

  async renew(workspaceId: string | undefined, client: TokenRequester): Promise<boolean> {
    if (this.creds.token || this.creds.sessionId || !workspaceId || !this.hasBasic()) return false;
    const rejected = this.live.get(workspaceId)?.token;
    this.live.delete(workspaceId);
    await this.token(workspaceId, client, rejected ?? '');
    return true;
  }

  used(workspaceId: string | undefined): void {
    if (!workspaceId) return;
    const t = this.live.get(workspaceId);
    if (t) t.last_used_at = this.now();
  }

  /**
   * A token for the workspace: the one in use while fresh, else a fresh one cached for this
   * identity and service, else a new one. `rejected` names a token the service refused.
   */
  async token(workspaceId: string, client: TokenRequester, rejected?: string): Promise<string> {
    if (this.creds.token) return this.creds.token;
    const inUse = this.live.get(workspaceId);
    if (rejected === undefined && tokenIsFresh(inUse, this.now())) return inUse.token;
    let obtaining = this.pending.get(workspaceId);
    if (!obtaining) {
      obtaining = this.obtain(workspaceId, client, rejected).finally(() => this.pending.delete(workspaceId));
      this.pending.set(workspaceId, obtaining);
    }
    return obtaining;
  }

  cachedToken(workspaceId: string): CachedToken | undefined {
    return this.live.get(workspaceId);
  }

  /** The identity of these credentials, as token cache keys name it (no secret in it). */
  identity(): Promise<string> {
    this.identityPromise ??= (async () => {
      if (!this.hasBasic()) throw this.noBasic();
      // Without a usable store the tokens live for this run only: any salt will do.
      const salt = (await this.storedSalt()) ?? nodeCrypto().randomBytes(16).toString('hex');
      return identityOf(identityKind(this.creds.source), salt, this.creds.username!, this.creds.password!);
    })();
    return this.identityPromise;
  }

  /**
   * The file's salt, created when missing. A folder that cannot be written (a read-only home in
   * CI) does not stop the run: its tokens are then simply not cached.
   */
  private async storedSalt(): Promise<string | undefined> {
    if (!this.store) return undefined;
    try {
      return await this.store.tokenKeySalt();
    } catch (err) {
      if (err instanceof ConfigFileError) throw err;
      this.cacheOff = true;
      return undefined;
    }
  }

  /** The tokens the file caches for these credentials at this service. */
  async cachedTokens(): Promise<TokenCacheEntry[]> {
    if (!this.store || this.creds.token || this.creds.sessionId || !this.hasBasic()) return [];
    const config = this.store.read();
    if (!config.token_key_salt) return [];
    return entriesOf(config, this.service, await this.identity());
  }

  /** Writes back last-use times that moved noticeably, so the next run can reuse the tokens. */
  async flush(): Promise<void> {
    if (!this.store || this.cacheOff || this.creds.source === 'login') return;
    const changed = [...this.live.entries()].filter(([ws, t]) => {
      const s = this.saved.get(ws);
      return s?.token === t.token && t.last_used_at - s.last_used_at > TOUCH_INTERVAL_MS;
    });
    if (changed.length === 0) return;
    const identity = await this.identity();
    const now = this.now();
    await this.store.update((config) => {
      for (const [ws, t] of changed) {
        const entry = cachedEntry(config, this.service, identity, ws);
        // Only a token still in the file is touched: one that is gone was removed on purpose
        // (logout) or replaced by a newer one.
        if (entry && entry.token === t.token) entry.last_used_at = Math.max(entry.last_used_at, t.last_used_at);
      }
      pruneExpired(config, now, TOKEN_LIFETIME_MS);
    });
    for (const [ws, t] of changed) this.saved.set(ws, { ...t });
  }

  /** The cached token when the file holds a fresh one; else issues one, once across processes. */
  private async obtain(workspaceId: string, client: TokenRequester, rejected: string | undefined): Promise<string> {
    if (!this.hasBasic()) throw this.noBasic();
    const identity = await this.identity();
    const reusable = (config: ConfigFile): TokenCacheEntry | undefined => {
      const entry = cachedEntry(config, this.service, identity, workspaceId);
      return entry && entry.token !== rejected && tokenIsFresh(entry, this.now()) ? entry : undefined;
    };
    const store = this.store;
    if (!store || this.cacheOff || this.creds.source === 'login') return (await this.issue(workspaceId, client)).token;

    let found = reusable(store.read());
    if (found) return this.adopt(workspaceId, found);
    // One process issues, the others wait for the token it saves (bounded: past the wait each
    // issues its own, so a stuck process never blocks the others for long).
    const lock = await acquireLock(
      join(store.dir, issuanceLockName(tokenCacheKey(this.service, identity, workspaceId))),
      {
        waitMs: ISSUANCE_WAIT_MS,
        staleMs: ISSUANCE_STALE_MS,
        poll: () => !!(found = reusable(store.reread())),
      },
    ).catch((err: unknown) => {
      if (err instanceof ConfigFileError) throw err;
      return undefined; // the folder went away or turned read-only: issue without waiting for others
    });
    try {
      found ??= reusable(store.reread());
      if (found) return this.adopt(workspaceId, found);
      // The token will be written: the store gets ready to write while the request is out.
      store.prepareWrite();
      const issued = await this.issue(workspaceId, client);
      await this.save(workspaceId, identity, issued);
      return issued.token;
    } finally {
      lock?.release();
    }
  }

  private adopt(workspaceId: string, entry: CachedToken): string {
    const copy = { token: entry.token, issued_at: entry.issued_at, last_used_at: entry.last_used_at };
    this.live.set(workspaceId, copy);
    this.saved.set(workspaceId, { ...copy });
    return copy.token;
  }

  /** Caches a token just issued. A cache that cannot be written costs later runs a token, not this run its work. */
  private async save(workspaceId: string, identity: string, issued: CachedToken): Promise<void> {
    const now = this.now();
    await this.store!.update((config) => {
      if (!this.stillHeld(config, identity)) return;
      const current = cachedEntry(config, this.service, identity, workspaceId);
      // Another process may have saved a newer token meanwhile (past the bounded wait): keep the newer.
      if (!current || current.issued_at <= issued.issued_at) {
        config.tokens ??= {};
        config.tokens[tokenCacheKey(this.service, identity, workspaceId)] = {
          base_url: this.service,
          identity,
          workspace_id: workspaceId,
          ...issued,
        };
      }
      pruneExpired(config, now, TOKEN_LIFETIME_MS);
    }).catch(() => undefined);
    this.saved.set(workspaceId, { ...issued });
  }

  /** Credentials from the environment are always theirs; a profile's only while the file still holds them. */
  private stillHeld(config: ConfigFile, identity: string): boolean {
    if (this.creds.source !== 'profile') return true;
    const p = config.profiles?.[this.profile];
    const salt = config.token_key_salt;
    return !!(p?.username && p.password && salt) && profileIdentity(salt, p.username, p.password) === identity;
  }

  private async issue(workspaceId: string, client: TokenRequester): Promise<CachedToken> {
    const res = await client
      .request<Received<'Token'>>(
        // Issuing a token changes nothing the caller can observe (the registry says so), so a
        // lost answer may be asked again.
        requestFor('token.issue', {
          body: { workspace_id: jsonInteger(workspaceId) } satisfies Sent<typeof tokenRequest>,
          expect: ['token'],
        }),
      )
      .catch((err: unknown) => {
        // The contract's 400 for a workspace id the agency does not have (token.issue).
        if (err instanceof ApiError && err.status === 400 && 'workspace_id' in err.details)
          throw new UnknownWorkspaceError(workspaceId, err, unknownWorkspaceWhere(workspaceId));
        throw err;
      });
    const token = res.data?.token;
    if (typeof token !== 'string' || token === '') throw new Error('the token answer carried no token');
    const now = this.now();
    const entry = { token, issued_at: now, last_used_at: now };
    this.live.set(workspaceId, entry);
    return { ...entry };
  }

  private basic(): string {
    if (!this.hasBasic()) throw this.noBasic();
    return basicHeader(this.creds.username!, this.creds.password!);
  }

  private noBasic(): AuthRequiredError {
    if (this.creds.token) {
      return new AuthRequiredError(
        'EDP_TOKEN is a workspace token; agency operations need EDP_USERNAME and EDP_PASSWORD',
      );
    }
    // A variable set without its pair is named, rather than reported as no credentials at all.
    if (this.creds.source === 'env' && (this.creds.username !== undefined) !== (this.creds.password !== undefined)) {
      const [set, unset] =
        this.creds.username !== undefined ? ['EDP_USERNAME', 'EDP_PASSWORD'] : ['EDP_PASSWORD', 'EDP_USERNAME'];
      return new AuthRequiredError(`${set} is set but ${unset} is not: agency operations need both`);
    }
    // The profile is named when it is not the default one, so that the command pasted logs in the right one.
    const login = suggest(['auth', 'login']);
    const which = this.profile === 'default' ? '' : ` in profile "${this.profile}"`;
    return new AuthRequiredError(
      `no agency credentials${which}: run \`${login}\`, or set EDP_USERNAME and EDP_PASSWORD`,
    );
  }

  private requireWorkspace(workspaceId: string | undefined): string {
    if (!workspaceId) {
      throw new UsageError(
        `this operation needs a workspace: pass -w/--workspace ID, set EDP_WORKSPACE, or make one the default with \`${suggest(['config', 'set', 'workspace', 'ID'])}\``,
      );
    }
    return workspaceId;
  }
}
