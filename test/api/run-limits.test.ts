import { getEventListeners } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient, type AuthProvider } from '../../src/api/client.js';
import { RetryBudget } from '../../src/api/retry.js';
import { ApiError } from '../../src/errors.js';
import { cli, waitUntil } from '../helpers.js';

// What one run may hold at once: the answers being read by every page and workspace together,
// and the memory the run takes while reading them. Past either, the run stops with
// response_too_large (exit 1) rather than exhaust memory. And however many requests wait at
// once, the run's signal carries one listener.

let servers: Server[] = [];
afterEach(async () => {
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
  servers = [];
});

async function serve(
  handle: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ url: string; seen: string[] }> {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    handle(req, res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

const auth: AuthProvider = { headers: async () => ({}), renew: async () => false, used: () => undefined };
const fast = { maxAttempts: 4, baseDelayMs: 20, maxDelayMs: 20, maxRetryAfterMs: 20, defaultRetryAfterMs: 20 };
const MiB = 1024 * 1024;

/** A JSON page of about `bytes`, its items padded. */
function page(bytes: number, count: number, items = 10): Buffer {
  const pad = 'x'.repeat(Math.floor(bytes / items));
  const results = Array.from({ length: items }, (_, i) => ({
    id: i + 1,
    recipe_id: i + 1,
    title: `T${i}`,
    padding: pad,
  }));
  // `next` says more pages follow; with a `count`, they are read by number.
  return Buffer.from(JSON.stringify({ count, next: '?page=2', previous: null, results }));
}

describe("the run's signal", () => {
  it('many requests retried at once hold one listener on it, none once the client is closed, and raise no warning', async () => {
    const attempts = new Map<string, number>();
    const { url } = await serve((req, res) => {
      const n = (attempts.get(req.url!) ?? 0) + 1;
      attempts.set(req.url!, n);
      if (n < 3) return req.socket.destroy();
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":1}');
    });
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on('warning', onWarning);
    try {
      const run = new AbortController();
      let most = 0;
      const client = new ApiClient({
        baseUrl: url,
        timeoutMs: 10_000,
        auth,
        signal: run.signal,
        policy: fast,
        budget: new RetryBudget(1000),
        onRetry: () => (most = Math.max(most, getEventListeners(run.signal, 'abort').length)),
      });
      const reads = Array.from({ length: 40 }, (_, i) => client.get(`/api/v3/x/${i}/`, 'none', undefined, ['id']));
      expect(await Promise.all(reads)).toHaveLength(40);
      expect(most).toBe(1);
      await client.close();
      expect(getEventListeners(run.signal, 'abort')).toHaveLength(0);
      await new Promise((r) => setImmediate(r));
      expect(warnings.map((w) => w.name)).not.toContain('MaxListenersExceededWarning');
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('a close ends the requests under way and those waiting to be repeated, with no notice of a retry', async () => {
    const { url, seen } = await serve((req, res) => {
      if (req.url!.startsWith('/busy'))
        res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '30' }).end('{"detail":"busy"}');
      // any other request is held: the close ends it
    });
    const notices: string[] = [];
    const client = new ApiClient({
      baseUrl: url,
      timeoutMs: 60_000,
      auth,
      policy: { ...fast, maxRetryAfterMs: 60_000 },
      onRetry: (n) => notices.push(n.path),
    });
    const held = client.get('/held/', 'none').then(
      () => 'answered',
      (e: Error) => e.message,
    );
    const waiting = client.get('/busy/', 'none').then(
      () => 'answered',
      (e: Error) => e.message,
    );
    await waitUntil(() => seen.length === 2 && notices.length === 1, {
      what: 'a request held and one waiting to be repeated',
    });
    await client.close();
    expect(await held).toBe('the run has ended');
    expect(await waiting).toBe('the run has ended');
    expect(notices).toEqual(['/busy/']);
    await expect(client.get('/later/', 'none')).rejects.toThrow('the run has ended');
    expect(seen.sort()).toEqual(['GET /busy/', 'GET /held/']);
  });
});

describe("the run's answers", () => {
  it('pages read at once past the budget stop the run: response_too_large, exit 1', async () => {
    // The first page is whole; the others send 900 KB and then nothing more, so all are read at once.
    const first = page(1000, 100, 10);
    const { url } = await serve((req, res) => {
      if (req.url === '/api/v3/token')
        return res.writeHead(200, { 'content-type': 'application/json' }).end('{"token":"t"}');
      res.writeHead(200, { 'content-type': 'application/json' });
      if (req.url!.includes('page=1&')) return res.end(first);
      res.write(`{"count":100,"next":null,"previous":null,"results":[{"id":1,"padding":"${'x'.repeat(900 * 1024)}`);
    });
    // EDP_MAX_RESPONSE_MB=1: answers of 1 MiB each, 4 MiB of them at once; 6 pages of 0.9 MB pass it.
    const r = await cli({ url }, ['workspaces', 'list', '--json'], { env: { EDP_MAX_RESPONSE_MB: '1' } });
    expect(r.code, r.stderr).toBe(1);
    const error = r.errorJson().error;
    expect(error).toMatchObject({ code: 'response_too_large', details: { limit_bytes: 4 * MiB, run: true } });
    expect(error.message).toContain(
      'the answers being read at once (every page and workspace of the run) would pass 4 MiB',
    );
    expect(error.message).toContain('EDP_MAX_RESPONSE_MB');
  });

  /** A client with a run budget of 16 MiB of memory, told `inUse()`, of a service answering 2 MiB. */
  async function budgeted(inUse: () => number): Promise<{ client: ApiClient; seen: string[] }> {
    const body = Buffer.from(JSON.stringify({ id: 1, padding: 'x'.repeat(2 * MiB) }));
    const { url, seen } = await serve((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(body),
    );
    const client = new ApiClient({
      baseUrl: url,
      timeoutMs: 10_000,
      auth,
      memoryBudgetBytes: 16 * MiB,
      memoryInUse: inUse,
    });
    return { client, seen };
  }

  it('memory that grows past the budget while answers are read stops the run, and no request is sent after', async () => {
    let inUse = 100 * MiB;
    const { client, seen } = await budgeted(() => inUse);
    try {
      await client.get('/a/', 'none', undefined, ['id']);
      // What the command keeps of the answers it read (a list gathered whole) counts too.
      inUse += 10 * MiB;
      await client.get('/b/', 'none', undefined, ['id']);
      inUse += 10 * MiB;
      const err = await client.get('/c/', 'none', undefined, ['id']).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ApiError);
      expect(err).toMatchObject({ code: 'response_too_large', details: { limit_bytes: 16 * MiB, run: true } });
      expect((err as Error).message).toContain('the memory the run has taken while reading answers has passed 16 MiB');
      await expect(client.get('/d/', 'none', undefined, ['id'])).rejects.toBe(err);
      expect(seen).toEqual(['GET /a/', 'GET /b/', 'GET /c/']);
    } finally {
      await client.close();
    }
  });

  it('memory freed of what was there before the run does not hide what the run has taken since', async () => {
    let inUse = 100 * MiB;
    const { client } = await budgeted(() => inUse);
    try {
      await client.get('/a/', 'none', undefined, ['id']);
      // A collection frees 60 MiB of garbage older than the run, then the run keeps 20 MiB more:
      // 60 MiB in use is less than the 100 first seen, but 20 over the least seen (40) is past the budget.
      inUse = 40 * MiB;
      await client.get('/b/', 'none', undefined, ['id']);
      inUse += 20 * MiB;
      const err = await client.get('/c/', 'none', undefined, ['id']).catch((e: unknown) => e);
      expect(err).toMatchObject({ code: 'response_too_large', details: { limit_bytes: 16 * MiB, run: true } });
    } finally {
      await client.close();
    }
  });

  it('lists gathered whole across workspaces stop at the memory budget (exit 1), whatever each page weighs', async () => {
    // 40 pages of about 1 MB for each workspace: `recipes status` keeps every recipe it reads.
    const pages = page(MiB, 40 * 10, 10);
    const { url } = await serve((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      if (req.url === '/api/v3/token') return res.end('{"token":"t"}');
      res.end(pages);
    });
    // EDP_MAX_RESPONSE_MB=2: 8 MiB of answers at once, 32 MiB of memory for the run.
    const r = await cli({ url }, ['recipes', 'status', '-w', '101,102,103', '--json'], {
      env: { EDP_MAX_RESPONSE_MB: '2' },
    });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain('response_too_large');
    expect(r.stderr).toMatch(/(would pass 8|has passed 32) MiB, the most one run of edp takes/);
  });
});

describe('the connections to the service', () => {
  it('take as many requests at once as a fleet plan has in flight (16 workspaces reading six lists each): the pool is no second limit', async () => {
    const held: ServerResponse[] = [];
    const { url } = await serve((_req, res) => held.push(res));
    const client = new ApiClient({ baseUrl: url, timeoutMs: 20_000, auth });
    try {
      const reads = Array.from({ length: 96 }, (_, i) => client.get(`/api/v3/x/${i}/`, 'none', undefined, ['id']));
      // With a narrower pool, the requests past its width wait in the client and never arrive.
      await waitUntil(() => held.length === 96, { what: '96 requests at the service at once' });
      for (const res of held) res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":1}');
      expect(await Promise.all(reads)).toHaveLength(96);
    } finally {
      await client.close();
    }
  });
});
