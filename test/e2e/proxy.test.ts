import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { cli, control, PASSWORD, sandbox, tempDir, USERNAME } from '../helpers.js';
import { runBuiltInProcess } from './built-in-process.js';
import { operatorEnv, requireBuild, ROOT, type EdpRun } from './helpers.js';

// The built command line through a real HTTP proxy, a process of its own
// (fixtures/connect-proxy.mjs) that records every request it receives. The command line is the
// shipped bundle run in this process (runBuiltInProcess): a run's environment is PATH, HOME and
// the variables given, as a process's would be, and the client reads the proxy variables from
// the run's environment alone. The sandbox listens on 127.0.0.1; the proxy maps the name
// service.test to it, so a service address that is not loopback reaches it, offline. Without the
// proxy that name resolves nowhere (.test is reserved): a run that goes straight there fails
// with "host not found", which shows it did.

interface Seen {
  method: string;
  target: string;
  headers: Record<string, string>;
}

interface Proxy {
  url: string;
  port: number;
  seen(): Promise<Seen[]>;
  close(): Promise<void>;
}

const proxies: ChildProcessWithoutNullStreams[] = [];

async function startProxy(...args: string[]): Promise<Proxy> {
  const child = spawn(process.execPath, [join(ROOT, 'test/e2e/fixtures/connect-proxy.mjs'), ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  proxies.push(child);
  const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
  const port = Number(line);
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    port,
    // Asked of the proxy itself once a run has ended: what it received, in order.
    seen: async () => (await (await fetch(`${url}/_seen`)).json()) as Seen[],
    close: async () => {
      if (child.exitCode === null) {
        child.kill();
        await once(child, 'exit');
      }
    },
  };
}

/** A port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const dir = tempDir('edp-e2e-proxy-');
let sb: Sandbox;
let proxy: Proxy;
/** The sandbox under a name that is not loopback: reachable only through the proxy. */
let service: string;
const PROXY_USER = 'proxy-user';
const PROXY_PASSWORD = 'pr0xy-s3cret';

beforeAll(async () => {
  requireBuild();
  sb = await sandbox({ buildSeconds: 0 });
  service = `http://service.test:${new URL(sb.url).port}`;
  proxy = await startProxy('--map', 'service.test=127.0.0.1', '--user', `${PROXY_USER}:${PROXY_PASSWORD}`);
});
afterAll(async () => {
  for (const child of proxies) if (child.exitCode === null) child.kill();
  await sb?.close();
  dir.remove();
});

/** The proxy's URL with its credentials, as an operator writes it in HTTPS_PROXY. */
const withCredentials = (p: Proxy) => `http://${PROXY_USER}:${PROXY_PASSWORD}@127.0.0.1:${p.port}`;

/** `edp argv…` as an operator of the demo agency at `baseUrl`, with `env` added. */
function edp(baseUrl: string, argv: string[], env: Record<string, string | undefined>): Promise<EdpRun> {
  return runBuiltInProcess(argv, { env: operatorEnv(baseUrl, join(dir.dir, 'config'), env) });
}

/** Requests the service received, from its journal. */
async function serviceRequests(): Promise<Array<{ method: string; path: string }>> {
  return ((await control(sb, 'GET', '/requests')) as { results: Array<{ method: string; path: string }> }).results;
}

/** Every way the agency's credentials and a workspace token may be written on the wire. */
function secretsOf(token: string): string[] {
  return [PASSWORD, USERNAME, Buffer.from(`${USERNAME}:${PASSWORD}`).toString('base64'), token];
}

describe('edp through an HTTP proxy', () => {
  it('goes to a service that is not loopback inside CONNECT tunnels: the proxy sees the host and port, never a credential or token', async () => {
    const before = (await proxy.seen()).length;
    const env = { HTTP_PROXY: withCredentials(proxy) };
    // The agency's list beside the workspace's token: Basic for the token, then Bearer with it
    // (the workspace's recipes), and the token printed.
    const [list, token] = await Promise.all([
      edp(service, ['workspaces', 'list', '--json', '--verbose'], env),
      edp(service, ['-w', '101', 'token'], env),
    ]);
    expect(list.stderr).toContain('GET /api/v3/workspaces');
    expect(list.code).toBe(0);
    expect(list.json<Array<{ id: number }>>().map((w) => w.id)).toEqual([101, 102, 103]);
    // --verbose names the proxy by its address alone.
    expect(list.stderr).toMatch(new RegExp(`GET /api/v3/workspaces\\S* 200 \\d+ms .*via=${proxy.url}\\b`));
    expect(list.stderr).not.toContain(PROXY_PASSWORD);
    expect(token.code).toBe(0);
    const issued = token.stdout.trim();
    expect(issued.length).toBeGreaterThan(10);
    const recipes = await edp(service, ['-w', '101', 'recipes', 'list', '--json'], env);
    expect(recipes.code).toBe(0);

    const seen = (await proxy.seen()).slice(before);
    expect(seen.length).toBeGreaterThanOrEqual(3);
    for (const request of seen) {
      expect(request.method).toBe('CONNECT');
      expect(request.target).toBe(`service.test:${new URL(sb.url).port}`);
      expect(Object.keys(request.headers)).not.toContain('authorization');
      expect(request.headers['proxy-authorization']).toBe(
        `Basic ${Buffer.from(`${PROXY_USER}:${PROXY_PASSWORD}`).toString('base64')}`,
      );
    }
    const recorded = JSON.stringify(seen);
    for (const secret of secretsOf(issued)) expect(recorded).not.toContain(secret);
  });

  it('in process too (the sources rather than the bundle): the proxy variables are read from the run’s environment', async () => {
    const before = (await proxy.seen()).length;
    const r = await cli({ url: service }, ['workspaces', 'list', '--json'], {
      env: { HTTP_PROXY: withCredentials(proxy), EDP_CONFIG_DIR: join(dir.dir, 'in-process') },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json<Array<{ id: number }>>().length).toBe(3);
    expect((await proxy.seen()).slice(before).map((s) => `${s.method} ${s.target}`)).toEqual([
      `CONNECT service.test:${new URL(sb.url).port}`,
    ]);
  });

  it('never goes through it to a loopback address: 127.0.0.1 and localhost are reached directly', async () => {
    const before = (await proxy.seen()).length;
    const port = new URL(sb.url).port;
    const env = { HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url, http_proxy: proxy.url };
    const runs = await Promise.all(
      [`http://127.0.0.1:${port}`, `http://localhost:${port}`].map((base) =>
        edp(base, ['workspaces', 'list', '--verbose'], env),
      ),
    );
    for (const r of runs) {
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).not.toContain('via=');
    }
    expect((await proxy.seen()).length).toBe(before);
  });

  it('NO_PROXY and no_proxy name hosts reached directly: the name, a domain with a leading dot, *, host:port', async () => {
    const port = new URL(sb.url).port;
    const before = (await proxy.seen()).length;
    const direct = [
      { NO_PROXY: 'service.test' },
      { NO_PROXY: '.test' },
      { NO_PROXY: '*' },
      { no_proxy: `other.example,service.test:${port}` },
      // The lower-case form wins, as in curl and undici.
      { no_proxy: 'service.test', NO_PROXY: 'other.example' },
    ];
    // Named for another port, or only in the upper-case form when the lower-case one is set: through the proxy.
    const proxied = [{ NO_PROXY: `service.test:${Number(port) + 1}` }, { no_proxy: '', NO_PROXY: 'service.test' }];
    // All at once: the direct runs spend most of their time repeating the failed lookup.
    const [directRuns, proxiedRuns] = await Promise.all([
      Promise.all(direct.map((noProxy) => edp(service, ['workspaces', 'list'], { HTTP_PROXY: proxy.url, ...noProxy }))),
      Promise.all(
        proxied.map((noProxy) =>
          edp(service, ['workspaces', 'list'], { HTTP_PROXY: withCredentials(proxy), ...noProxy }),
        ),
      ),
    ]);
    for (const r of directRuns) {
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`host not found: ${service}`);
    }
    // service.test resolves nowhere but through the proxy: a run that reached the service went
    // through it, with one tunnel; so the proxy saw those tunnels and no other.
    for (const r of proxiedRuns) expect(r.code, r.stderr).toBe(0);
    expect((await proxy.seen()).length).toBe(before + proxied.length);
  });

  it('a proxy that refuses the tunnel: exit 1 naming it by scheme, host and port, nothing sent and not repeated', async () => {
    const refusing = await startProxy('--refuse', '403');
    try {
      const before = (await serviceRequests()).length;
      const secretProxy = `http://someone:hidden-pw@127.0.0.1:${refusing.port}`;
      // A write: refused by the proxy, it is known not to have reached the service. (HTTPS_PROXY
      // is for https:// services: an http:// one goes through HTTP_PROXY.)
      const r = await edp(service, ['workspaces', 'create', '--title', 'Through a proxy'], {
        HTTPS_PROXY: 'http://127.0.0.1:1',
        HTTP_PROXY: secretProxy,
      });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(
        `error: POST /api/v3/workspaces: the proxy ${refusing.url} (HTTP_PROXY) refused the tunnel to service.test:${new URL(sb.url).port}: it answered 403 Forbidden; nothing was sent to the service`,
      );
      expect(r.stderr).toContain("hint: check HTTP_PROXY, or name the service's host in NO_PROXY");
      expect(r.stderr).not.toMatch(/hidden-pw|someone|outcome unknown|retrying/);
      expect((await refusing.seen()).map((s) => s.method)).toEqual(['CONNECT']);
      expect((await serviceRequests()).length).toBe(before);

      const json = await edp(service, ['workspaces', 'list', '--json'], { http_proxy: secretProxy });
      expect(json.code).toBe(1);
      expect(json.errorJson().error).toMatchObject({ code: 'network_error' });
      expect(json.errorJson().error.message).toContain(`the proxy ${refusing.url} (http_proxy) refused the tunnel`);
      expect(json.stderr).not.toContain('hidden-pw');
    } finally {
      await refusing.close();
    }
  });

  it('a proxy that wants other credentials (407): exit 1 saying where to give them, never showing those given', async () => {
    const r = await edp(service, ['workspaces', 'list'], {
      HTTP_PROXY: `http://${PROXY_USER}:wrong-pw@127.0.0.1:${proxy.port}`,
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`the proxy ${proxy.url} (HTTP_PROXY) refused the tunnel to service.test:`);
    expect(r.stderr).toContain('it answered 407 Proxy Authentication Required');
    expect(r.stderr).toContain(
      'hint: the proxy wants credentials: give them in HTTP_PROXY, as http://USER:PASSWORD@host:port',
    );
    expect(r.stderr).not.toMatch(/wrong-pw|proxy-user/);
  });

  it('a proxy that is not there: exit 1 naming it, after the repeats a refused connection gets', async () => {
    const port = await closedPort();
    const r = await edp(service, ['workspaces', 'list'], {
      // The lower-case form wins over a working upper-case one.
      http_proxy: `http://someone:hidden-pw@127.0.0.1:${port}`,
      HTTP_PROXY: proxy.url,
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `error: GET /api/v3/workspaces?page=1&page_size=100: connection refused by the proxy http://127.0.0.1:${port} (http_proxy); nothing was sent to the service`,
    );
    expect(r.stderr).toContain("hint: check the proxy's address in http_proxy, or name the service's host in NO_PROXY");
    expect(r.stderr).toContain('attempt 4 of 4');
    expect(r.stderr).not.toContain('hidden-pw');
  });

  it('a proxy variable that cannot be used is bad input naming it: exit 2, nothing sent', async () => {
    const before = (await proxy.seen()).length;
    const cases = [
      [
        'socks5://127.0.0.1:1080',
        'error: HTTP_PROXY names a socks5 proxy; edp goes through http:// and https:// proxies only',
      ],
      ['http://user:pw@[bad', 'error: HTTP_PROXY is not a proxy address such as http://proxy.example:3128'],
    ] as const;
    const runs = await Promise.all(cases.map(([value]) => edp(service, ['workspaces', 'list'], { HTTP_PROXY: value })));
    for (const [i, r] of runs.entries()) {
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(cases[i]![1]);
      expect(r.stderr).not.toContain('pw@');
    }
    expect((await proxy.seen()).length).toBe(before);
  });
});
