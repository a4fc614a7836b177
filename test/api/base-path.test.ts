import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { forward, listen, passOrFail, reply, type Proxy } from '../fixtures/proxy.js';
import { cli, freshConfig, sandbox } from '../helpers.js';

// A service mounted under a path by a reverse proxy (`https://host/edp/`): every request goes
// under that path, and none leaves it.

let sb: Sandbox;
let proxy: Proxy;
let seen: string[];
/** A path the proxy does not mount, answered in its place (it must never be asked for). */
let outside: string[];

beforeAll(async () => {
  sb = await sandbox();
  proxy = await listen(
    (req, res, body) =>
      void passOrFail(res, async () => {
        const url = req.url!;
        if (!url.startsWith('/edp/')) {
          outside.push(`${req.method} ${url}`);
          res.writeHead(404, { 'content-type': 'application/json' }).end('{"detail":"not mounted"}');
          return;
        }
        seen.push(`${req.method} ${url}`);
        req.url = url.slice('/edp'.length);
        reply(res, await forward(sb.url, req, body));
      }),
  );
});
afterAll(async () => {
  await proxy.close();
  await sb.close();
});
afterEach(() => {
  expect(outside).toEqual([]);
});
const reset = () => {
  seen = [];
  outside = [];
};

describe('a base URL with a path', () => {
  it('sends every request under the path, tokens included', async () => {
    reset();
    for (const base of [`${proxy.url}/edp/`, `${proxy.url}/edp`]) {
      const r = await cli({ url: base }, ['workspaces', 'list', '--json']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.json<Array<{ id: number }>>().map((w) => Number(w.id))).toEqual([101, 102, 103]);
    }
    const r = await cli({ url: `${proxy.url}/edp/` }, ['-w', '101', 'api', 'GET', '/api/v3.1/automated-recipes/'], {
      env: { EDP_CONFIG_DIR: freshConfig().dir },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(seen).toContain('POST /edp/api/v3/token');
    expect(seen).toContain('GET /edp/api/v3.1/automated-recipes/');
    expect(seen.every((s) => / \/edp\/api\//.test(s))).toBe(true);
  });

  it('refuses a path that leaves it once a proxy decodes it (exit 2, nothing sent)', async () => {
    reset();
    for (const path of ['/api/..%2f..%2fother/x', '/%2e%2e%2fother', '/api/%2E%2E%2F%2E%2E%2Fother']) {
      const r = await cli({ url: `${proxy.url}/edp/` }, ['api', 'GET', path, '--basic']);
      expect(r.code, `${path}: ${r.stderr}`).toBe(2);
      // edp api refuses an escaped separator before the client reads the path against the base
      // (sentPathProblem, test/api/path.test.ts): either way nothing is sent.
      expect(r.stderr).toContain(`path "${path}" is not sent`);
    }
    expect(seen).toEqual([]);
  });

  it('keeps `..` typed in a path under it, as a URL parser does', async () => {
    reset();
    const r = await cli({ url: `${proxy.url}/edp/` }, ['api', 'GET', '/../api/v3/workspaces', '--basic']);
    expect(r.code, r.stderr).toBe(0);
    expect(seen).toEqual(['GET /edp/api/v3/workspaces']);
  });

  it('takes a paging link given as a path under it, and refuses an address outside it (exit 2)', async () => {
    reset();
    let next = '';
    const links = await listen((req, res) => {
      if (req.url!.startsWith('/edp/api/v3/workspaces')) {
        seen.push(req.url!);
        const last = req.url!.includes('page=2');
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({ next: last ? null : next, previous: null, results: [{ id: seen.length, title: 'A' }] }),
        );
        return;
      }
      outside.push(req.url!);
      res.writeHead(404).end();
    });
    try {
      next = '/api/v3/workspaces?page=2';
      const path = await cli({ url: `${links.url}/edp` }, ['api', 'GET', '/api/v3/workspaces', '--paginate']);
      expect(path.code, path.stderr).toBe(0);
      expect(seen).toEqual(['/edp/api/v3/workspaces?page=1&page_size=100', '/edp/api/v3/workspaces?page=2']);

      seen = [];
      // An address without the path: a service behind the proxy that does not know where it is mounted.
      next = `${links.url}/api/v3/workspaces?page=2`;
      const address = await cli({ url: `${links.url}/edp` }, ['api', 'GET', '/api/v3/workspaces', '--paginate']);
      expect(address.code).toBe(2);
      expect(address.stderr).toContain('it leaves /edp, the path of the configured service');
      expect(seen).toEqual(['/edp/api/v3/workspaces?page=1&page_size=100']);
    } finally {
      await links.close();
    }
  });

  it('refuses a base URL with a query, a fragment or a path starting with // (exit 2, naming where it was set)', async () => {
    reset();
    for (const bad of [`${proxy.url}/edp/?x=1`, `${proxy.url}/edp#top`, `${proxy.url}//edp/`]) {
      const r = await cli({ url: bad }, ['workspaces', 'list']);
      expect(r.code, bad).toBe(2);
      expect(r.stderr).toContain('EDP_BASE_URL');
      const flag = await cli(undefined, ['--base-url', bad, 'workspaces', 'list']);
      expect(flag.code, bad).toBe(2);
      expect(flag.stderr).toContain('--base-url');
      const { env } = freshConfig();
      const set = await cli(undefined, ['config', 'set', 'base_url', bad], { env });
      expect(set.code, bad).toBe(2);
    }
    expect(seen).toEqual([]);
  });
});
