import type { Credentials } from '../config/credentials.js';
import { displayUrl } from '../util/display-url.js';
import { isLoopbackHost } from '../util/loopback.js';
import type { Output } from './output.js';

/** Whether credentials sent to this address cross a network unencrypted: http to a host that is not this machine. */
export function sentInClear(baseUrl: string): boolean {
  let u: URL;
  try {
    u = new URL(baseUrl);
  } catch {
    return false;
  }
  if (u.protocol !== 'http:') return false;
  return !isLoopbackHost(u.hostname);
}

/** The runs (their output) already warned: `auth login` warns before asking, then builds the client. */
const warned = new WeakSet<Output>();

/**
 * Warns, once per run and before any credential is sent, that credentials will cross the network
 * unencrypted: `baseUrl` is plain http to another machine. `credentials` are the run's, or
 * 'password' for a user name and password not asked for yet (`auth login` warns before asking).
 * A security warning: on stderr (stdout keeps its JSON), shown with --quiet too. A run with no
 * credentials sends none, and is told nothing.
 */
export function warnIfSentInClear(output: Output, baseUrl: string, credentials: Credentials | 'password'): void {
  if (warned.has(output) || !sentInClear(baseUrl)) return;
  const sent =
    credentials === 'password'
      ? ['the user name and password']
      : [
          ...(credentials.username || credentials.password ? ['the user name and password'] : []),
          ...(credentials.token ? ['the token'] : []),
          ...(credentials.sessionId ? ['the session id'] : []),
        ];
  if (sent.length === 0) return;
  warned.add(output);
  output.warn(
    `${displayUrl(baseUrl)} is plain http to another machine: ${sent.join(' and ')} will cross the network unencrypted; use https:// if the service offers it`,
  );
}
