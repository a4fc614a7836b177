import { writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cli, freshConfig, tempDir } from '../helpers.js';

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

/** A scripted service: each test installs the answers it needs and reads what was received. */
let server: Server;
let url: string;
let handler: Handler;
let received: Array<{ method: string; url: string; headers: IncomingMessage['headers']; body: string }>;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      received.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      handler(req, res, body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
beforeEach(() => {
  received = [];
});

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', 'x-im-trace-id': 'trace-123', ...headers });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

const env = { EDP_TOKEN: 'tok-secret-value', EDP_WORKSPACE: '7' };
const run = (argv: string[], extra: Record<string, string> = {}) =>
  cli({ url }, ['-w', '7', ...argv], { env: { ...env, ...extra } });

describe('API client', () => {
  it('reads the v3.1 envelope: status, code, message, details field paths, trace id (exit 2 for 400)', async () => {
    handler = (_q, res) =>
      json(res, 400, {
        code: 'validation_error',
        message: 'The request body is invalid.',
        details: {
          fields: [{ field: 'connections[0].accounts', code: 'empty', message: 'This list may not be empty.' }],
        },
      });
    const r = await run(['api', 'PUT', '/api/v3.1/automated-recipes/1/', '-f', 'x=1']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('400 validation_error: The request body is invalid.');
    expect(r.stderr).toContain('connections[0].accounts: empty: This list may not be empty.');
    expect(r.stderr).toContain('trace id: trace-123');
  });

  it('prints the JSON error document on stderr with --json', async () => {
    handler = (_q, res) =>
      json(
        res,
        409,
        '{"code":"recipe_already_exists","message":"exists","details":{"existing_recipe_ids":[9007199254740993]}}',
      );
    const r = await run(['api', 'POST', '/api/v3.1/automated-recipes/', '--json', '-F', 'template_id=1']);
    expect(r.code).toBe(6);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim()).toBe(
      '{"error":{"status":409,"code":"recipe_already_exists","message":"exists","details":{"existing_recipe_ids":[9007199254740993]},"trace_id":"trace-123"}}',
    );
  });

  it('reads {detail}, the `details` spelling, HTML and empty bodies', async () => {
    handler = (_q, res) => json(res, 403, { detail: 'Recipe pipeline is disabled.' });
    let r = await run(['api', 'GET', '/api/v3/x']);
    expect([r.code, r.stderr.split('\n')[0]]).toEqual([4, 'error: 403: Recipe pipeline is disabled.']);

    handler = (_q, res) => json(res, 404, { details: 'No such thing.' });
    r = await run(['api', 'GET', '/api/v3/x']);
    expect([r.code, r.stderr.split('\n')[0]]).toEqual([5, 'error: 404: No such thing.']);

    handler = (_q, res) => {
      res.writeHead(500, { 'content-type': 'text/html' });
      res.end('<html><head><title>Server Error (500)</title></head><body><h1>Oops</h1></body></html>');
    };
    r = await run(['api', 'DELETE', '/api/v3/x']);
    expect([r.code, r.stderr.split('\n')[0]]).toEqual([1, 'error: 500: Server Error (500)']);

    handler = (_q, res) => {
      res.writeHead(410);
      res.end();
    };
    r = await run(['api', 'GET', '/api/v3/automated-recipes/']);
    expect([r.code, r.stderr.split('\n')[0]]).toEqual([5, 'error: 410: Gone']);
  });

  it('never follows a redirect: a POST stays a POST and the error names the canonical path', async () => {
    handler = (req, res) => {
      if (req.url === '/api/v3.1/automated-recipes') {
        res.writeHead(301, { location: '/api/v3.1/automated-recipes/' });
        return res.end();
      }
      json(res, 200, {});
    };
    const r = await run(['api', 'POST', '/api/v3.1/automated-recipes', '-F', 'template_id=1']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('canonical path: /api/v3.1/automated-recipes/');
    expect(received.map((x) => `${x.method} ${x.url}`)).toEqual(['POST /api/v3.1/automated-recipes']);
  });

  it('round-trips ids beyond 2^53 and ids sent as strings', async () => {
    const body =
      '{"count":2,"next":null,"previous":null,"results":[{"recipe_id":9007199254740993,"n":1},{"recipe_id":"18446744073709551617","n":2}]}';
    handler = (_q, res) => json(res, 200, body);
    const r = await run(['api', 'GET', '/api/v3/automated-recipes/', '--paginate', '--ndjson']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('{"recipe_id":9007199254740993,"n":1}\n{"recipe_id":"18446744073709551617","n":2}\n');
  });

  it('sends big integers exactly in request bodies', async () => {
    handler = (_q, res) => json(res, 200, { ok: true });
    await run(['api', 'POST', '/api/v3/x', '-F', 'recipe_id=9007199254740993', '-f', 'title=007']);
    expect(received[0]!.body).toContain('"recipe_id":9007199254740993');
    expect(received[0]!.body).toContain('"title":"007"');
  });

  it("repeats a read after a 503 with Retry-After, and reports a write's 503 as outcome unknown", async () => {
    let n = 0;
    handler = (_q, res) =>
      n++ === 0
        ? json(res, 503, { code: 'service_unavailable', message: 'later', details: {} }, { 'retry-after': '0' })
        : json(res, 200, { ok: 1 });
    let r = await run(['api', 'GET', '/api/v3/x']);
    expect(r.code).toBe(0);
    expect(received).toHaveLength(2);

    received = [];
    handler = (_q, res) =>
      json(res, 503, { code: 'service_unavailable', message: 'later', details: {} }, { 'retry-after': '0' });
    r = await run(['api', 'POST', '/api/v3.1/automated-recipes/', '-F', 'template_id=1', '--json']);
    expect(r.code).toBe(1);
    expect(received).toHaveLength(1);
    expect(r.errorJson().error.code).toBe('outcome_unknown');
    expect(r.errorJson().error.status).toBe(503);
  });

  it('reports a write whose connection dropped as outcome unknown, and does not repeat it', async () => {
    handler = (req) => req.socket.destroy();
    const r = await run(['api', 'POST', '/api/v3/x', '-f', 'a=b']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('outcome unknown');
    expect(r.stderr).toContain('re-read');
    expect(received).toHaveLength(1);
  });

  it('repeats a read whose connection dropped', async () => {
    let n = 0;
    handler = (req, res) => (n++ < 2 ? req.socket.destroy() : json(res, 200, { ok: true }));
    const r = await run(['api', 'GET', '/api/v3/x']);
    expect(r.code).toBe(0);
    expect(received).toHaveLength(3);
  });

  it('times out per request (--timeout)', async () => {
    handler = () => undefined; // never answers
    const r = await run(['api', 'POST', '/api/v3/x', '--timeout', '200ms', '-f', 'a=b']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/timed out/);
  });

  it('logs requests with --verbose without secrets', async () => {
    handler = (_q, res) => json(res, 200, { ok: true });
    const r = await run(['api', 'GET', '/api/v3/x?token=abc&page=1', '--verbose']);
    expect(r.stderr).toMatch(/GET \/api\/v3\/x\?token=\*\*\*&page=1 200 \d+ms trace=trace-123/);
    expect(r.stderr).not.toContain('tok-secret-value');
    expect(r.stderr).not.toContain('abc');
    expect(received[0]!.headers.authorization).toBe('Bearer tok-secret-value');
  });

  it('uses Basic for agency paths and Bearer for workspace paths', async () => {
    handler = (_q, res) => json(res, 200, { ok: true });
    const dir = tempDir();
    await cli({ url }, ['api', 'GET', '/api/v3/workspaces'], { env: { EDP_CONFIG_DIR: dir.dir } });
    expect(received[0]!.headers.authorization).toMatch(/^Basic /);
    await run(['api', 'GET', '/api/v3/datasources']);
    expect(received[1]!.headers.authorization).toBe('Bearer tok-secret-value');
    dir.remove();
  });

  it('refuses a session id that is not a cookie value, naming EDP_SESSION_ID (exit 2, nothing sent)', async () => {
    handler = (_q, res) => json(res, 200, { ok: true });
    for (const bad of ['a; b=1', 'a b', 'a,b', '"a"', 'a\\b', 'é']) {
      const r = await cli({ url }, ['-w', '12', 'api', 'GET', '/api/v3/datasources'], { env: { EDP_SESSION_ID: bad } });
      expect(r.code, bad).toBe(2);
      expect(r.stderr).toContain('EDP_SESSION_ID is not a cookie value');
    }
    const { env, file } = freshConfig();
    writeFileSync(file, JSON.stringify({ profiles: { default: { session_id: 'a;b=1' } } }));
    const r = await cli({ url }, ['-w', '12', 'api', 'GET', '/api/v3/datasources'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('profile "default" session_id is not a cookie value');
    expect(received).toEqual([]);
  });

  it('an answer with a key given twice, at any depth, is unexpected_response naming the key (exit 1)', async () => {
    handler = (_q, res) =>
      json(res, 200, '{"count":1,"next":null,"previous":null,"results":[{"id":1,"title":"A"}],"results":[]}');
    let r = await cli({ url }, ['workspaces', 'list', '--json']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.errorJson().error).toMatchObject({
      code: 'unexpected_response',
      message:
        'unexpected answer to GET /api/v3/workspaces?page=1&page_size=100 (200): the key "results" is given twice in one object (at the top level)',
      details: { key: 'results' },
      trace_id: 'trace-123',
    });

    handler = (_q, res) => json(res, 200, '{"id":7,"title":"A","connections":[{"id":1,"id":2}]}');
    r = await run(['api', 'GET', '/api/v3/x']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('the key "id" is given twice in one object (in connections[0])');
    expect(received).toHaveLength(2);
  });

  it('sends the cookie session and workspace header when configured', async () => {
    handler = (_q, res) => json(res, 200, { ok: true });
    await cli({ url }, ['-w', '12', 'api', 'GET', '/api/v3/datasources'], { env: { EDP_SESSION_ID: 'sess-1' } });
    expect(received[0]!.headers.cookie).toBe('dts_session_id=sess-1');
    expect(received[0]!.headers['x-im-workspace-id']).toBe('12');
    expect(received[0]!.headers.authorization).toBeUndefined();
  });
});
