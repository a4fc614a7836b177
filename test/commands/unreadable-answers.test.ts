import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { cli, sandbox } from '../helpers.js';
import { useFiles } from '../fixtures/files.js';
import { forward, listen, passOrFail, reply, type Proxy } from '../fixtures/proxy.js';

// A 2xx the commands cannot read (a login page, cut JSON, nothing, the wrong shape, too large,
// too deep) is an error naming the operation and the trace id: never an empty list, never a
// silent success, never retried as a network fault. Served by a proxy in front of a sandbox
// that answers chosen paths itself.

const writeFile = useFiles('edp-unreadable-');

interface Raw {
  status?: number;
  type?: string;
  body: string | Buffer;
  headers?: Record<string, string>;
}

let sb: Sandbox;
let proxy: Proxy | undefined;
let seen: string[];
beforeEach(async () => {
  sb = await sandbox();
  seen = [];
});
afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
  await sb.close();
});

/** A proxy that answers `method path` (query ignored) with `raw` where `pick` says so, else the sandbox's answer. */
async function serve(pick: (method: string, path: string) => Raw | undefined): Promise<{ url: string }> {
  proxy = await listen(
    (req, res, body) =>
      void passOrFail(res, async () => {
        seen.push(`${req.method} ${req.url}`);
        const raw = pick(req.method!, req.url!.split('?')[0]!);
        if (!raw) return reply(res, await forward(sb.url, req, body));
        res.writeHead(raw.status ?? 200, {
          'content-type': raw.type ?? 'application/json',
          'x-im-trace-id': 'trace-unreadable',
          ...raw.headers,
        });
        res.end(raw.body);
      }),
  );
  return { url: proxy.url };
}

const LOGIN_PAGE: Raw = {
  type: 'text/html; charset=utf-8',
  body: '<!doctype html><html><head><title>Sign in - Corporate Proxy</title></head><body><form>…</form></body></html>',
};

function errorOf(r: { stderr: string }) {
  return JSON.parse(r.stderr.trim().split('\n').pop()!).error;
}

describe('answers the commands cannot read', () => {
  it('a login page for a list is exit 1 naming the operation and the trace id, not an empty list', async () => {
    const s = await serve((m, p) => (p === '/api/v3/workspaces' ? LOGIN_PAGE : undefined));
    const r = await cli(s, ['workspaces', 'list', '--json']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(errorOf(r)).toMatchObject({
      status: 200,
      code: 'unexpected_response',
      trace_id: 'trace-unreadable',
    });
    expect(errorOf(r).message).toContain('GET /api/v3/workspaces?page=1&page_size=100');
    expect(errorOf(r).message).toContain('not JSON (text/html)');
    // Not retried: one request.
    expect(seen.filter((x) => x.startsWith('GET /api/v3/workspaces'))).toHaveLength(1);
    const person = await cli(s, ['workspaces', 'list']);
    expect(person.code).toBe(1);
    expect(person.stderr).toContain('unexpected answer to GET /api/v3/workspaces');
    expect(person.stderr).toContain('trace-unreadable');
  });

  it('cut JSON, an empty body, or an object without the fields read: exit 1, nothing printed as if it worked', async () => {
    const cases: Array<[Raw, string]> = [
      [{ body: '{"id": 101, "title": "Acme' }, 'not valid JSON'],
      [{ body: '' }, 'the body is empty'],
      [{ body: '{"title": "Acme"}' }, '`id` is missing'],
      [{ body: '[1, 2]' }, 'expected an object, got an array'],
    ];
    for (const [raw, problem] of cases) {
      const s = await serve((m, p) => (p === '/api/v3/workspaces/101' ? raw : undefined));
      const r = await cli(s, ['workspaces', 'get', '101', '--json']);
      expect(r.code, problem).toBe(1);
      expect(r.stdout).toBe('');
      expect(errorOf(r)).toMatchObject({
        code: 'unexpected_response',
        details: { problem: expect.stringContaining(problem) },
      });
      await proxy!.close();
      proxy = undefined;
    }
  });

  it('a page whose results are not a list is an error, and so is a list answered with an object', async () => {
    const s = await serve((m, p) =>
      p === '/api/v3/webhook_endpoints/'
        ? { body: '{"count": 3, "next": null, "results": "three"}' }
        : p === '/api/v3/roles/permissions'
          ? { body: '{"layers": []}' }
          : undefined,
    );
    const hooks = await cli(s, ['-w', '101', 'webhooks', 'list', '--json']);
    expect(hooks.code).toBe(1);
    expect(errorOf(hooks).details.problem).toBe("the page's `results` is a string");
    const catalog = await cli(s, ['roles', 'permissions', '--json']);
    expect(catalog.code).toBe(1);
    expect(errorOf(catalog).details.problem).toBe('the page has no `results`');
  });

  it('behind a login page for the webhook list, apply creates nothing and export writes no file', async () => {
    const s = await serve((m, p) => (m === 'GET' && p === '/api/v3/webhook_endpoints/' ? LOGIN_PAGE : undefined));
    const fleet = writeFile(
      'fleet.yaml',
      'workspaces: [101]\nwebhooks:\n  - url: https://hooks.example.com/edp\n    events: [load_completed]\n',
    );
    const before = sb.store.state.webhook_endpoints!.length;
    for (let i = 0; i < 3; i++) {
      const r = await cli(s, ['apply', '-f', fleet, '--yes']);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('unexpected answer to GET /api/v3/webhook_endpoints/');
    }
    expect(sb.store.state.webhook_endpoints!.length).toBe(before);
    expect(seen.filter((x) => x.startsWith('POST /api/v3/webhook_endpoints'))).toEqual([]);
    const out = writeFile('exported.yaml', 'untouched\n');
    // --force: a file the export did not write is otherwise refused before anything is read.
    const exported = await cli(s, ['export', '-w', '101', '--output', out, '--force']);
    expect(exported.code).toBe(1);
    expect(readFileSync(out, 'utf8')).toBe('untouched\n');
  });

  it('an answer larger than EDP_MAX_RESPONSE_MB is refused as it arrives, once, not retried', async () => {
    const big = Buffer.alloc(3 * 1024 * 1024, 'a');
    const s = await serve((m, p) =>
      p === '/api/v3/workspaces/101'
        ? { body: Buffer.concat([Buffer.from('{"id":101,"x":"'), big, Buffer.from('"}')]) }
        : undefined,
    );
    const r = await cli(s, ['workspaces', 'get', '101', '--json'], { env: { EDP_MAX_RESPONSE_MB: '1' } });
    expect(r.code).toBe(1);
    expect(errorOf(r)).toMatchObject({ code: 'response_too_large', details: { limit_bytes: 1024 * 1024 } });
    expect(errorOf(r).message).toContain('EDP_MAX_RESPONSE_MB');
    expect(seen).toEqual(['GET /api/v3/workspaces/101']);
    // Under the default limit the same answer is read.
    expect((await cli(s, ['workspaces', 'get', '101', '--json'])).code).toBe(0);
    const bad = await cli(s, ['workspaces', 'get', '101'], { env: { EDP_MAX_RESPONSE_MB: 'lots' } });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('EDP_MAX_RESPONSE_MB');
  });

  it('JSON nested thousands deep, in a 200 or in a 400, is one clear error and is not retried', async () => {
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    const s = await serve((m, p) =>
      p === '/api/v3/workspaces/101'
        ? { body: `{"id":101,"x":${deep}}` }
        : p === '/api/v3/workspaces/102'
          ? { status: 400, body: `{"code":"bad","details":${deep}}` }
          : undefined,
    );
    for (const id of ['101', '102']) {
      const r = await cli(s, ['workspaces', 'get', id, '--json']);
      expect(r.code, r.stderr).toBe(1);
      expect(errorOf(r)).toMatchObject({ code: 'unexpected_response' });
      expect(errorOf(r).message).toContain('nested deeper than 256 levels');
    }
    expect(seen).toEqual(['GET /api/v3/workspaces/101', 'GET /api/v3/workspaces/102']);
  });

  it('an HTML error page of any shape is read in one pass', async () => {
    // `<title<title…` made the old pattern take seconds per 100 KB; here 2 MB, cut to 64 KiB.
    const s = await serve((m, p) =>
      p === '/api/v3/workspaces/101'
        ? { status: 502, type: 'text/html', body: '<title'.repeat(350_000) }
        : p === '/api/v3/workspaces/102'
          ? { status: 502, type: 'text/html', body: `<p>${'<'.repeat(2_000_000)}` }
          : undefined,
    );
    for (const id of ['101', '102']) {
      const r = await cli(s, ['workspaces', 'get', id, '--json'], { env: {} });
      expect(r.code).toBe(1);
      expect(errorOf(r).status).toBe(502);
    }
  }, 60_000);
});
