import type { Credentials } from './credentials.js';
import type { ConfigStore } from './store.js';

/**
 * A workspace operation with a user name and password from the environment looks up its
 * token in the cache, keyed by a slow digest of the password (config/token-cache.ts). The
 * digest (and the file's salt, if this is the first token) starts when a command that asked
 * for its workspace builds its client, on another thread, so that it overlaps loading the
 * client rather than following it (and a command refused for bad input never starts it); the
 * lookup later finds it computed or under way. Any failure is left for the lookup to meet and
 * report.
 */
export function startIdentityDigest(credentials: () => Credentials, store: () => ConfigStore): void {
  try {
    const creds = credentials();
    if (creds.token || creds.sessionId || !creds.username || !creds.password) return;
    const config = store();
    void import('./token-cache.js')
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
