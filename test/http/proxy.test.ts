import fc from 'fast-check';
import { createRequire } from 'node:module';
import type { Dispatcher, EnvHttpProxyAgent as EnvHttpProxyAgentType } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { ProxyError, UsageError } from '../../src/errors.js';
import { proxyFault, proxyFor, type ProxyEnvironment } from '../../src/http/proxy.js';

const require = createRequire(import.meta.url);

const route = (url: string, env: ProxyEnvironment) => proxyFor(new URL(url), env);
/** The proxy a URL goes through, as its address (undefined: straight to the service). */
const via = (url: string, env: ProxyEnvironment) => route(url, env)?.shown;

const P = 'http://proxy.example:3128';
const S = 'http://secure-proxy.example:8443';

describe('proxyFor: which proxy a request to the service goes through', () => {
  it('none without the variables; HTTP_PROXY for http://, HTTPS_PROXY for https://, else HTTP_PROXY', () => {
    expect(via('https://api.example.com', {})).toBeUndefined();
    expect(via('http://api.example.com', { HTTP_PROXY: P, HTTPS_PROXY: S })).toBe(P);
    expect(via('https://api.example.com', { HTTP_PROXY: P, HTTPS_PROXY: S })).toBe(S);
    expect(via('https://api.example.com', { HTTP_PROXY: P })).toBe(P);
    expect(via('http://api.example.com', { HTTPS_PROXY: S })).toBeUndefined();
    expect(route('https://api.example.com', { https_proxy: S })).toMatchObject({ variable: 'https_proxy' });
  });

  it('the lower-case form wins when both are set, even empty (no proxy)', () => {
    expect(route('http://api.example.com', { http_proxy: S, HTTP_PROXY: P })).toMatchObject({
      shown: S,
      variable: 'http_proxy',
    });
    expect(via('http://api.example.com', { http_proxy: '', HTTP_PROXY: P })).toBeUndefined();
    // An empty HTTPS proxy falls back to the HTTP one, as undici does.
    expect(via('https://api.example.com', { https_proxy: '', HTTPS_PROXY: S, HTTP_PROXY: P })).toBe(P);
    expect(via('http://api.example.com', { HTTP_PROXY: P, no_proxy: '', NO_PROXY: 'api.example.com' })).toBe(P);
    expect(via('http://api.example.com', { HTTP_PROXY: P, no_proxy: 'api.example.com', NO_PROXY: '' })).toBeUndefined();
  });

  it('never for a loopback address: localhost, 127.0.0.0/8, ::1, whatever NO_PROXY says', () => {
    const env = { HTTP_PROXY: P, HTTPS_PROXY: S, NO_PROXY: 'other.example' };
    for (const url of [
      'http://localhost:4010',
      'https://LOCALHOST.',
      'http://127.0.0.1:4010',
      'http://127.1:4010',
      'http://127.255.0.9',
      'http://[::1]:4010',
      'http://[::ffff:127.0.0.1]:4010',
    ])
      expect(via(url, env), url).toBeUndefined();
    // Names and addresses that are not loopback by themselves go through it.
    for (const url of ['http://localhost.example', 'http://128.0.0.1', 'http://[::2]', 'http://my-localhost'])
      expect(via(url, env), url).toBe(P);
  });

  it('NO_PROXY: names and their subdomains, a leading dot or *., host:port, * alone, commas or spaces', () => {
    const through = (url: string, noProxy: string) => via(url, { HTTPS_PROXY: S, NO_PROXY: noProxy });
    expect(through('https://api.example.com', 'example.com')).toBeUndefined();
    expect(through('https://api.example.com', '.example.com')).toBeUndefined();
    expect(through('https://api.example.com', '*.example.com')).toBeUndefined();
    expect(through('https://example.com', '.example.com')).toBeUndefined();
    expect(through('https://API.Example.COM', 'api.EXAMPLE.com')).toBeUndefined();
    expect(through('https://notexample.com', 'example.com')).toBe(S);
    expect(through('https://api.example.com', 'other.org,  api.example.com')).toBeUndefined();
    expect(through('https://api.example.com', 'other.org api.example.com')).toBeUndefined();
    expect(through('https://api.example.com', 'api.example.com:443')).toBeUndefined();
    expect(through('https://api.example.com:8443', 'api.example.com:443')).toBe(S);
    expect(through('https://api.example.com:8443', 'api.example.com:8443')).toBeUndefined();
    expect(through('https://api.example.com', '*')).toBeUndefined();
    // * is a wildcard only alone (as in curl and undici).
    expect(through('https://api.example.com', 'other.org,*')).toBe(S);
    expect(through('https://10.1.2.3', '10.1.2.3')).toBeUndefined();
    expect(through('https://[fd00::2]:8443', '[fd00::2]:8443')).toBeUndefined();
    // Address ranges are not read (as in undici).
    expect(through('https://10.1.2.3', '10.0.0.0/8')).toBe(S);
  });

  it('names the proxy by scheme, host and port, never with its credentials; a proxy without a scheme is http://', () => {
    expect(route('https://api.example.com', { HTTPS_PROXY: 'http://me:s3cret@proxy.example:3128/' })).toEqual({
      uri: 'http://me:s3cret@proxy.example:3128/',
      shown: 'http://proxy.example:3128',
      variable: 'HTTPS_PROXY',
    });
    expect(via('https://api.example.com', { HTTPS_PROXY: 'proxy.example:3128' })).toBe('http://proxy.example:3128');
    expect(via('https://api.example.com', { HTTPS_PROXY: 'https://proxy.example' })).toBe('https://proxy.example:443');
    expect(via('https://api.example.com', { HTTPS_PROXY: 'http://[fd00::1]' })).toBe('http://[fd00::1]:80');
  });

  it('a variable that cannot be used is bad input naming it, never its value; one that does not apply is not read', () => {
    const refused = (value: string) => {
      try {
        route('https://api.example.com', { HTTPS_PROXY: value });
      } catch (err) {
        expect(err).toBeInstanceOf(UsageError);
        return (err as Error).message;
      }
      throw new Error(`${value} was taken`);
    };
    expect(refused('socks5://me:pw@proxy.example:1080')).toBe(
      'HTTPS_PROXY names a socks5 proxy; edp goes through http:// and https:// proxies only',
    );
    expect(refused('http://me:pw@[proxy')).toBe('HTTPS_PROXY is not a proxy address such as http://proxy.example:3128');
    expect(refused('file:///tmp/x')).toContain('names a file proxy');
    expect(via('http://localhost:4010', { HTTP_PROXY: 'socks5://x' })).toBeUndefined();
    expect(via('https://api.example.com', { HTTPS_PROXY: S, HTTP_PROXY: 'http://[bad' })).toBe(S);
  });
});

// undici's own reading of the variables, EnvHttpProxyAgent, judges the decision: for any
// address that is not loopback, and any variables written as full URLs, both pick the same
// proxy or none. Which agent undici picks is seen by replacing the dispatch of each of its
// three agents (none, the HTTP proxy's, the HTTPS proxy's) with a recorder.
describe('proxyFor agrees with undici', () => {
  const { EnvHttpProxyAgent } = require('undici') as { EnvHttpProxyAgent: typeof EnvHttpProxyAgentType };
  const symbols = require('undici/lib/core/symbols.js') as Record<string, symbol>;
  const NAMES = ['http_proxy', 'HTTP_PROXY', 'https_proxy', 'HTTPS_PROXY', 'no_proxy', 'NO_PROXY'] as const;
  const saved = Object.fromEntries(NAMES.map((n) => [n, process.env[n]]));
  afterEach(() => {
    for (const n of NAMES) {
      if (saved[n] === undefined) delete process.env[n];
      else process.env[n] = saved[n];
    }
  });

  /** The proxy undici's EnvHttpProxyAgent sends a request to `url` through, under `env`, or undefined. */
  async function undiciChoice(url: string, env: ProxyEnvironment): Promise<string | undefined> {
    for (const n of NAMES) {
      if (env[n] === undefined) delete process.env[n];
      else process.env[n] = env[n];
    }
    const agent = new EnvHttpProxyAgent() as unknown as Record<symbol, Dispatcher & Record<symbol, { uri: string }>>;
    const direct = agent[symbols.kNoProxyAgent!]!;
    let chosen: string | undefined = 'nothing dispatched';
    for (const key of [symbols.kHttpProxyAgent!, symbols.kHttpsProxyAgent!]) {
      const proxy = agent[key]!;
      if (proxy !== direct) proxy.dispatch = () => ((chosen = proxy[symbols.kProxy!]!.uri), true);
    }
    direct.dispatch = () => ((chosen = undefined), true);
    const dispatcher = agent as unknown as Dispatcher;
    dispatcher.dispatch({ origin: new URL(url).origin, path: '/', method: 'GET' }, { onError: (err) => fail(err) });
    await dispatcher.close();
    return chosen;
  }
  const fail = (err: unknown) => {
    throw err;
  };

  it('for any address that is not loopback and any variables', async () => {
    const proxyValue = fc.constantFrom(
      undefined,
      '',
      P,
      'http://me:pw@proxy2.example:8080',
      'https://tls-proxy.example',
    );
    const entry = fc.constantFrom(
      'example.com',
      '.example.com',
      '*.example.com',
      'EXAMPLE.com',
      'api.example.com:8443',
      'api.example.com:443',
      'api.example.com:80',
      'service.test',
      '*',
      '10.0.0.5',
      '[fd00::2]',
      '[fd00::2]:8443',
      'other.org',
      '',
    );
    const noProxy = fc.option(
      fc
        .tuple(fc.array(entry, { maxLength: 4 }), fc.constantFrom(',', ' ', ', ', ',\t'))
        .map(([entries, sep]) => entries.join(sep)),
      { nil: undefined },
    );
    const target = fc
      .tuple(
        fc.constantFrom('http:', 'https:'),
        fc.constantFrom(
          'api.example.com',
          'example.com',
          'a.b.example.com',
          'API.example.COM',
          'service.test',
          'notexample.com',
          '10.0.0.5',
          '[fd00::2]',
        ),
        fc.constantFrom('', ':80', ':443', ':8443'),
      )
      .map(([scheme, host, port]) => `${scheme}//${host}${port}`);
    await fc.assert(
      fc.asyncProperty(
        target,
        fc.record({
          http_proxy: proxyValue,
          HTTP_PROXY: proxyValue,
          https_proxy: proxyValue,
          HTTPS_PROXY: proxyValue,
          no_proxy: noProxy,
          NO_PROXY: noProxy,
        }),
        async (url, env) => {
          expect(route(url, env)?.uri).toBe(await undiciChoice(url, env));
        },
      ),
      { numRuns: 400 },
    );
  });
});

describe('proxyFault: a fault that is the proxy’s, told as its own', () => {
  const proxy = {
    uri: 'http://me:s3cret@proxy.example:3128/',
    shown: 'http://proxy.example:3128',
    variable: 'HTTPS_PROXY',
  };
  const target = new URL('https://api.example.com/edp');
  const refusal = (status: number) =>
    Object.assign(new Error(`Proxy response (${status}) !== 200 when HTTP Tunneling`), { code: 'UND_ERR_ABORTED' });

  it('a refused tunnel names the proxy, the status and the service’s host and port; 502, 503 and 504 may be asked again', () => {
    const forbidden = proxyFault(refusal(403), proxy, target)!;
    expect(forbidden).toBeInstanceOf(ProxyError);
    expect(forbidden.message).toBe(
      'the proxy http://proxy.example:3128 (HTTPS_PROXY) refused the tunnel to api.example.com:443: it answered 403 Forbidden; nothing was sent to the service',
    );
    expect(forbidden).toMatchObject({ code: 'PROXY_TUNNEL_REFUSED', status: 403, retryable: false });
    expect(proxyFault(refusal(407), proxy, target)!.hint).toContain('give them in HTTPS_PROXY');
    expect(proxyFault(refusal(502), proxy, target)).toMatchObject({ retryable: true, status: 502 });
    expect(proxyFault(refusal(418), proxy, target)!.message).toContain('it answered 418;');
  });

  it('a connection to the proxy that fails names it, keeping the code; other faults are not the proxy’s', () => {
    const refused = proxyFault(
      Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
      proxy,
      target,
    )!;
    expect(refused.message).toBe(
      'connection refused by the proxy http://proxy.example:3128 (HTTPS_PROXY); nothing was sent to the service',
    );
    expect(refused).toMatchObject({ code: 'ECONNREFUSED', retryable: true });
    expect(proxyFault(Object.assign(new Error('reset'), { code: 'ECONNRESET' }), proxy, target)).toBeUndefined();
    expect(proxyFault(Object.assign(new Error('aborted'), { code: 'UND_ERR_ABORTED' }), proxy, target)).toBeUndefined();
    for (const fault of [refusal(403), Object.assign(new Error('x'), { code: 'ENOTFOUND' })])
      expect(JSON.stringify(proxyFault(fault, proxy, target))).not.toContain('s3cret');
  });
});
