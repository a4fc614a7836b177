import { ProxyError, UsageError } from '../errors.js';
import { isLoopbackHost } from '../util/loopback.js';

/** The proxy requests to the service go through: undici's ProxyAgent is given `uri`. */
export interface ProxyRoute {
  /** the proxy's URL, credentials included: for undici alone, never shown */
  uri: string;
  /** scheme://host:port: the proxy as messages name it, never with its credentials */
  shown: string;
  /** the variable it came from, as spelt in the environment (https_proxy, HTTPS_PROXY, …) */
  variable: string;
}

export type ProxyEnvironment = Readonly<Record<string, string | undefined>>;

const DEFAULT_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443 };

/**
 * The proxy a request to `target` goes through, or undefined to go straight there. Pure: the
 * address and the environment decide. The variables are read as undici's EnvHttpProxyAgent
 * reads them (test/http/proxy.test.ts compares the two), with one rule of the tool's: a
 * loopback address (localhost, 127.0.0.0/8, ::1) never goes through a proxy.
 * - An https:// address goes through https_proxy, else HTTPS_PROXY, else the http one; an
 *   http:// address through http_proxy, else HTTP_PROXY. The lower-case form wins when both are
 *   set (as in curl), even set empty, which means no proxy.
 * - no_proxy, else NO_PROXY: names separated by commas or spaces. `*` alone: no proxy at all.
 *   A name matches itself and its subdomains (`example.com` and `.example.com` both match
 *   `api.example.com`); `name:port` only that port. Addresses match as written (no CIDR ranges).
 * - A proxy written without a scheme is http:// (as curl reads it); http:// and https://
 *   proxies are supported. A variable that cannot be used is bad input, naming it.
 */
export function proxyFor(target: URL, env: ProxyEnvironment): ProxyRoute | undefined {
  const targetPort = DEFAULT_PORTS[target.protocol];
  if (targetPort === undefined || isLoopbackHost(target.hostname)) return undefined;
  const http = first('http_proxy', env.http_proxy, 'HTTP_PROXY', env.HTTP_PROXY);
  const https = first('https_proxy', env.https_proxy, 'HTTPS_PROXY', env.HTTPS_PROXY);
  const chosen = target.protocol === 'https:' && https.value ? https : http;
  if (!chosen.value) return undefined;
  // The host with its port stripped, so that an IPv6 address keeps its brackets (as undici does).
  const host = target.host.replace(/:\d*$/, '').toLowerCase();
  const port = Number.parseInt(target.port, 10) || targetPort;
  if (bypassed(host, port, env.no_proxy ?? env.NO_PROXY ?? '')) return undefined;
  return route(chosen.value, chosen.variable);
}

/** The lower-case variable when set (even empty), else the upper-case one: the value and its name. */
function first(
  lowerName: string,
  lower: string | undefined,
  upperName: string,
  upper: string | undefined,
): { value: string | undefined; variable: string } {
  return lower !== undefined ? { value: lower, variable: lowerName } : { value: upper, variable: upperName };
}

/** Whether NO_PROXY names the host (lower case, an IPv6 address in brackets) at this port. */
function bypassed(host: string, port: number, noProxy: string): boolean {
  if (noProxy === '*') return true;
  for (const entry of noProxy.split(/[,\s]/)) {
    if (!entry) continue;
    const withPort = /^(.+):(\d+)$/.exec(entry);
    const name = (withPort ? withPort[1]! : entry).replace(/^\*?\./, '').toLowerCase();
    if (withPort && Number.parseInt(withPort[2]!, 10) !== port) continue;
    if (host === name || host.endsWith(`.${name}`)) return true;
  }
  return false;
}

/** The proxy of a variable's value, checked: bad input names the variable (exit 2, nothing sent). */
function route(value: string, variable: string): ProxyRoute {
  const written = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`;
  let url: URL;
  try {
    url = new URL(written);
  } catch {
    // Not the value: it may carry the proxy's credentials.
    throw new UsageError(`${variable} is not a proxy address such as http://proxy.example:3128`);
  }
  const port = DEFAULT_PORTS[url.protocol];
  if (port === undefined)
    throw new UsageError(
      `${variable} names a ${url.protocol.replace(/:$/, '')} proxy; edp goes through http:// and https:// proxies only`,
    );
  if (!url.hostname) throw new UsageError(`${variable} names no proxy host, as in http://proxy.example:3128`);
  return { uri: url.href, shown: `${url.protocol}//${url.hostname}:${url.port || port}`, variable };
}

/** undici's refusal of a tunnel: the proxy answered CONNECT with another status than 200 (undici 7, pinned). */
const TUNNEL_REFUSED = /^Proxy response \((\d{3})\) !== 200 when HTTP Tunneling$/;

/** Faults of the connection to the proxy: with a proxy, every connection the client opens is to it. */
const PROXY_CONNECT_FAULTS: Record<string, string> = {
  ECONNREFUSED: 'connection refused by the proxy',
  ENOTFOUND: 'proxy host not found:',
  EAI_AGAIN: 'the name of the proxy could not be looked up:',
  EHOSTUNREACH: 'host unreachable: the proxy',
  ENETUNREACH: 'network unreachable: the proxy',
  UND_ERR_PRX_TLS: 'the TLS certificate does not name the proxy',
};

/** What a proxy's answer to CONNECT means, for a person. */
const TUNNEL_STATUS: Record<number, string> = {
  403: 'Forbidden',
  407: 'Proxy Authentication Required',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/**
 * A request's fault that is the proxy's, told as such (a ProxyError naming the proxy, never its
 * credentials), or undefined for any other: the proxy could not be reached, or it refused to
 * open the tunnel to `target`'s host and port. Nothing reached the service in either
 * case. A refusal of 502, 503 or 504 (the proxy could not reach the service) may be asked again.
 */
export function proxyFault(err: unknown, proxy: ProxyRoute, target: URL): ProxyError | undefined {
  if (!(err instanceof Error)) return undefined;
  const tunnel = `${target.hostname}:${target.port || DEFAULT_PORTS[target.protocol]}`;
  const code = (err as { code?: unknown }).code;
  const named = `${proxy.shown} (${proxy.variable})`;
  const refused = code === 'UND_ERR_ABORTED' ? TUNNEL_REFUSED.exec(err.message) : null;
  if (refused) {
    const status = Number(refused[1]);
    const reason = TUNNEL_STATUS[status];
    const gateway = status === 502 || status === 503 || status === 504;
    return new ProxyError({
      message: `the proxy ${named} refused the tunnel to ${tunnel}: it answered ${status}${reason ? ` ${reason}` : ''}; nothing was sent to the service`,
      code: 'PROXY_TUNNEL_REFUSED',
      status,
      retryable: gateway,
      hint:
        status === 407
          ? `the proxy wants credentials: give them in ${proxy.variable}, as http://USER:PASSWORD@host:port`
          : gateway
            ? `the proxy could not reach ${tunnel}: check the service's address (--base-url, EDP_BASE_URL), or the proxy`
            : `check ${proxy.variable}, or name the service's host in NO_PROXY to reach it without the proxy`,
      cause: err,
    });
  }
  if (typeof code !== 'string' || !(code in PROXY_CONNECT_FAULTS)) return undefined;
  return new ProxyError({
    message: `${PROXY_CONNECT_FAULTS[code]} ${named}; nothing was sent to the service`,
    code,
    retryable: code !== 'UND_ERR_PRX_TLS',
    hint: `check the proxy's address in ${proxy.variable}, or name the service's host in NO_PROXY to reach it without the proxy`,
    cause: err,
  });
}
