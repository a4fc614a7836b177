import { nodeCrypto } from '../util/crypto.js';
import type { CredentialSource } from './credentials.js';

export interface CachedToken {
  token: string;
  /** ms since epoch */
  issued_at: number;
  /** ms since epoch; tokens live 30 minutes after their last use */
  last_used_at: number;
}

/** A cached workspace token with what it was issued to: one service, one identity, one workspace. */
export interface TokenCacheEntry extends CachedToken {
  base_url: string;
  /** who the token was issued to: user name plus a salted digest of the password (see identityOf below) */
  identity: string;
  workspace_id: string;
}

/** What of the config file the cache reads and writes (ConfigFile's `tokens`, store.ts). */
export interface TokenFile {
  tokens?: Record<string, TokenCacheEntry>;
}

/**
 * Who a token is issued to. A cached token is used only by the same identity at the same
 * service address, so that credentials from the environment never ride on a token issued to
 * the profile's user (or to a wrong password), and another `--base-url` never receives it.
 *
 * The identity is the user name plus a digest of the password, keyed by a random salt kept in
 * the config file:
 * - credentials of a logged-in profile: HMAC-SHA256. Their password is stored in the same
 *   0600 file in clear text, so a slow digest would protect nothing and only cost time.
 * - credentials from the environment (EDP_USERNAME/EDP_PASSWORD): scrypt (N=2^14, r=8, 16 MiB),
 *   because that password is stored nowhere else: whoever can read the file must not be able
 *   to try password guesses against the digest cheaply. A fast HMAC would let a weak password
 *   fall to an offline guessing run; scrypt makes each guess cost ~50 ms and 16 MiB. It is
 *   computed at most once per run, only by runs that need a workspace token.
 */
export type IdentityKind = 'profile' | 'env';

/** The digest for credentials of this source: the HMAC for a profile's, scrypt for any other. */
export function identityKind(source: CredentialSource | undefined): IdentityKind {
  return source === 'profile' ? 'profile' : 'env';
}

const SCRYPT = { N: 1 << 14, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };

/** Digests already computed by this process (a process that runs many commands pays once). */
const computed = new Map<string, Promise<string>>();

export function identityOf(kind: IdentityKind, salt: string, username: string, password: string): Promise<string> {
  if (kind === 'profile') return Promise.resolve(profileIdentity(salt, username, password));
  const memo = nodeCrypto().createHash('sha256').update(`${salt}\0${username}\0${password}`).digest('base64url');
  let identity = computed.get(memo);
  if (!identity) {
    identity = new Promise<Buffer>((resolve, reject) =>
      nodeCrypto().scrypt(password, `${salt}\0${username}`, 32, SCRYPT, (err, key) =>
        err ? reject(err) : resolve(key),
      ),
    ).then((digest) => `basic:${username}:scrypt:${digest.toString('base64url')}`);
    computed.set(memo, identity);
  }
  return identity;
}

export function profileIdentity(salt: string, username: string, password: string): string {
  const digest = nodeCrypto().createHmac('sha256', salt).update(`${username}\0${password}`).digest('base64url');
  return `basic:${username}:hmac:${digest}`;
}

/** The service address as a key: scheme, host and port normalised by URL, path without trailing slashes. */
export function serviceKey(baseUrl: string): string {
  const u = new URL(baseUrl);
  return `${u.origin}${u.pathname.replace(/\/+$/, '')}`;
}

export function tokenCacheKey(service: string, identity: string, workspaceId: string): string {
  return `${service} ${identity} ${workspaceId}`;
}

/** The cached entry for exactly this service, identity and workspace, if the file holds one. */
export function cachedEntry(
  config: TokenFile,
  service: string,
  identity: string,
  workspaceId: string,
): TokenCacheEntry | undefined {
  const entry = config.tokens?.[tokenCacheKey(service, identity, workspaceId)];
  if (
    !entry ||
    typeof entry !== 'object' ||
    entry.base_url !== service ||
    entry.identity !== identity ||
    entry.workspace_id !== workspaceId ||
    typeof entry.token !== 'string' ||
    entry.token === '' ||
    typeof entry.last_used_at !== 'number' ||
    typeof entry.issued_at !== 'number'
  ) {
    return undefined;
  }
  return entry;
}

/** Every entry issued to this identity at this service. */
export function entriesOf(config: TokenFile, service: string, identity: string): TokenCacheEntry[] {
  return Object.values(config.tokens ?? {}).filter((e) => e && e.base_url === service && e.identity === identity);
}

/** Forgets tokens the service has expired anyway, so that the file does not grow without end. */
export function pruneExpired(config: TokenFile, now: number, lifetimeMs: number): void {
  if (!config.tokens) return;
  for (const [key, e] of Object.entries(config.tokens)) {
    if (!e || typeof e.last_used_at !== 'number' || e.last_used_at + lifetimeMs <= now) delete config.tokens[key];
  }
}

/** Forgets every token of an identity (logout, or the profile's password changed). */
export function forgetIdentity(config: TokenFile, identity: string): void {
  if (!config.tokens) return;
  for (const [key, e] of Object.entries(config.tokens)) if (e?.identity === identity) delete config.tokens[key];
}

/** A short name for the lock of one token's issuance. */
export function issuanceLockName(key: string): string {
  return `token-${nodeCrypto().createHash('sha256').update(key).digest('hex').slice(0, 20)}.lock`;
}

/** Whether a file of the config folder is a token issuance lock (`issuanceLockName`). */
export function isIssuanceLockName(name: string): boolean {
  return /^token-[0-9a-f]{20}\.lock$/.test(name);
}

/**
 * An issuance lock this old is left over whoever holds it (one whose holder died on this host
 * is, at once): a holder keeps it for one token request, and waiting processes take one older
 * than two minutes as stale anyway.
 */
export const ISSUANCE_LOCK_LEFT_OVER_MS = 10 * 60_000;
