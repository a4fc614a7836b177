import { AuthRequiredError, UsageError } from '../errors.js';
import type { ConfigStore, CachedToken } from '../config/store.js';
import { jsonInteger } from '../util/json.js';
import type { ApiClient, AuthKind, AuthProvider } from './client.js';

/** Contract, Authentication rule 2: a token expires 30 minutes after its last use. */
export const TOKEN_LIFETIME_MS = 30 * 60_000;
/** Treat a token as expired this much early: clocks differ, and the request takes time. */
const EXPIRY_MARGIN_MS = 60_000;
/** The cached last-use time is rewritten at most this often, so most runs do not write the file. */
const TOUCH_INTERVAL_MS = 60_000;

export interface Credentials {
  username?: string | undefined;
  password?: string | undefined;
  /** EDP_TOKEN: a ready bearer token, never issued or renewed by the tool */
  token?: string | undefined;
  /** cookie session id */
  sessionId?: string | undefined;
}

export function tokenExpiresAt(t: CachedToken): number {
  return t.last_used_at + TOKEN_LIFETIME_MS;
}

export function tokenIsFresh(t: CachedToken | undefined, now: number): t is CachedToken {
  return !!t && tokenExpiresAt(t) - EXPIRY_MARGIN_MS > now;
}

export function basicHeader(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}`;
}

/**
 * Authentication per operation: Basic for agency operations, a workspace token (or a cookie
 * session) for workspace operations. Tokens are issued per workspace, cached in the profile
 * with their last-use time, reused across runs, and re-issued once on a 401.
 */
export class CredentialAuth implements AuthProvider {
  private readonly pending = new Map<string, Promise<string>>();
  private readonly live = new Map<string, CachedToken>();

  constructor(
    private readonly creds: Credentials,
    private readonly store: ConfigStore | undefined,
    private readonly profile: string,
    private readonly now: () => number = Date.now,
  ) {}

  hasBasic(): boolean {
    return !!(this.creds.username && this.creds.password);
  }

  async headers(kind: AuthKind, workspaceId: string | undefined, client: ApiClient): Promise<Record<string, string>> {
    if (kind === 'none') return {};
    if (kind === 'basic') return { authorization: this.basic() };
    if (this.creds.token) return { authorization: `Bearer ${this.creds.token}` };
    const ws = this.requireWorkspace(workspaceId);
    if (this.creds.sessionId) {
      return { cookie: `dts_session_id=${this.creds.sessionId}`, 'x-im-workspace-id': ws };
    }
    return { authorization: `Bearer ${await this.token(ws, client)}` };
  }

  async renew(workspaceId: string | undefined, client: ApiClient): Promise<boolean> {
    if (this.creds.token || this.creds.sessionId || !workspaceId || !this.hasBasic()) return false;
    this.live.delete(workspaceId);
    await this.forget(workspaceId);
    await this.token(workspaceId, client, true);
    return true;
  }

  used(workspaceId: string | undefined): void {
    if (!workspaceId) return;
    const t = this.live.get(workspaceId);
    if (t) t.last_used_at = this.now();
  }

  /** A token for the workspace: the cached one while fresh, else a new one. */
  async token(workspaceId: string, client: ApiClient, forceNew = false): Promise<string> {
    if (this.creds.token) return this.creds.token;
    const now = this.now();
    if (!forceNew) {
      const cached = this.live.get(workspaceId) ?? this.store?.profile(this.profile).tokens?.[workspaceId];
      if (tokenIsFresh(cached, now)) {
        this.live.set(workspaceId, cached);
        return cached.token;
      }
    }
    let issuing = this.pending.get(workspaceId);
    if (!issuing) {
      issuing = this.issue(workspaceId, client).finally(() => this.pending.delete(workspaceId));
      this.pending.set(workspaceId, issuing);
    }
    return issuing;
  }

  cachedToken(workspaceId: string): CachedToken | undefined {
    return this.live.get(workspaceId);
  }

  /** Writes back last-use times that moved noticeably, so the next run can reuse the tokens. */
  async flush(): Promise<void> {
    if (!this.store) return;
    const stored = this.store.profile(this.profile).tokens ?? {};
    const changed = [...this.live.entries()].filter(
      ([ws, t]) => stored[ws]?.token !== t.token || t.last_used_at - (stored[ws]?.last_used_at ?? 0) > TOUCH_INTERVAL_MS,
    );
    if (changed.length === 0) return;
    await this.store.updateProfile(this.profile, (p) => {
      p.tokens = { ...(p.tokens ?? {}) };
      for (const [ws, t] of changed) p.tokens[ws] = { ...t };
      return p;
    });
  }

  private async issue(workspaceId: string, client: ApiClient): Promise<string> {
    const res = await client.request<{ token: string }>({
      method: 'POST',
      path: '/api/v3/token',
      auth: 'basic',
      body: { workspace_id: jsonInteger(workspaceId) },
      // Issuing a token changes nothing the caller can observe, so a lost answer may be asked again.
      repeatable: true,
    });
    const token = res.data?.token;
    if (typeof token !== 'string' || token === '') throw new Error('the token answer carried no token');
    const now = this.now();
    const entry = { token, issued_at: now, last_used_at: now };
    this.live.set(workspaceId, entry);
    return token;
  }

  private async forget(workspaceId: string): Promise<void> {
    if (!this.store?.profile(this.profile).tokens?.[workspaceId]) return;
    await this.store.updateProfile(this.profile, (p) => {
      if (p.tokens) delete p.tokens[workspaceId];
      return p;
    });
  }

  private basic(): string {
    if (!this.hasBasic()) {
      throw new AuthRequiredError(
        'no agency credentials: run `edp auth login`, or set EDP_USERNAME and EDP_PASSWORD',
      );
    }
    return basicHeader(this.creds.username!, this.creds.password!);
  }

  private requireWorkspace(workspaceId: string | undefined): string {
    if (!workspaceId) {
      throw new UsageError('this operation needs a workspace: pass -w/--workspace ID or set EDP_WORKSPACE');
    }
    return workspaceId;
  }
}
