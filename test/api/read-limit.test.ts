import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApiClient, type AuthProvider } from '../../src/api/client.js';
import { ApiError, NetworkError } from '../../src/errors.js';
import { ReadLimitError, readLimits, type ReadLimit } from '../../src/util/poll.js';
import { waitUntil } from '../helpers.js';

// A read made for a wait (util/poll.ts sets its bound in readLimits) ends at that bound: the
// answer still awaited is given up, no attempt starts after it, and a pause before a repeat
// ends there, whatever --timeout (60 s here) and the attempts left would allow.

let server: Server;
let url: string;
let answer: (req: IncomingMessage, res: ServerResponse) => void;
let received: string[];
/** answers held back by a service that does not answer (ended when the file ends) */
const held: ServerResponse[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    received.push(`${req.method} ${req.url}`);
    req.resume();
    req.on('end', () => answer(req, res));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const res of held) res.destroy();
  await new Promise<void>((r) => server.close(() => r()));
});
beforeEach(() => {
  received = [];
});

const auth: AuthProvider = { headers: async () => ({}), renew: async () => false, used: () => undefined };

/** A client on pretend time: its pauses move `clock` on and return at once. */
function client() {
  const clock = { t: 1_000_000 };
  const pauses: number[] = [];
  const c = new ApiClient({
    baseUrl: url,
    timeoutMs: 60_000,
    auth,
    sleep: async (ms, signal) => {
      if (signal?.aborted) throw signal.reason;
      pauses.push(ms);
      clock.t += ms;
    },
  });
  const limit = (inMs: number): ReadLimit & { controller: AbortController } => {
    const controller = new AbortController();
    return { at: clock.t + inMs, now: () => clock.t, signal: controller.signal, controller };
  };
  return { c, pauses, limit };
}

describe('a read made under a wait’s bound', () => {
  it('an answer still awaited is given up when the bound passes: one attempt, no retry', async () => {
    answer = (_q, res) => held.push(res);
    const { c, limit } = client();
    const l = limit(120_000);
    try {
      const read = readLimits.run(l, () => c.get('/api/v3/workspaces/1', 'none'));
      const ended = read.then(
        () => 'answered',
        (err: unknown) => err,
      );
      await waitUntil(() => received.length === 1, { what: 'the request to arrive' });
      l.controller.abort(new ReadLimitError(120_000));
      const err = await ended;
      expect(err).toBeInstanceOf(ReadLimitError);
      expect(received).toEqual(['GET /api/v3/workspaces/1']);
    } finally {
      await c.close();
    }
  });

  it('a Retry-After longer than the time left: the pause ends at the bound, the read is given up, its 503 kept', async () => {
    answer = (_q, res) => {
      res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '30' });
      res.end(JSON.stringify({ code: 'service_unavailable', message: 'later', details: {} }));
    };
    const { c, pauses, limit } = client();
    const l = limit(10_000);
    try {
      await expect(readLimits.run(l, () => c.get('/api/v3/workspaces/1', 'none'))).rejects.toBeInstanceOf(
        ReadLimitError,
      );
      expect(pauses).toEqual([10_000]);
      expect(received).toHaveLength(1);
      expect(l.failure).toBeInstanceOf(ApiError);
      expect((l.failure as ApiError).status).toBe(503);
    } finally {
      await c.close();
    }
  });

  it('a refused connection: the back-off stops at the bound, with the network fault kept', async () => {
    // A port nothing listens on: a server's, once closed.
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    let now = 0;
    const pauses: number[] = [];
    const dead = new ApiClient({
      baseUrl: `http://127.0.0.1:${port}`,
      timeoutMs: 60_000,
      auth,
      // Attempts enough, and back-off long enough (jittered up to 1, 2, 4 s…), to pass a bound of 1 ms.
      policy: { maxAttempts: 10, baseDelayMs: 1000, maxDelayMs: 4000, maxRetryAfterMs: 60_000, defaultRetryAfterMs: 0 },
      sleep: async (ms) => {
        pauses.push(ms);
        now += ms;
      },
    });
    const l: ReadLimit = { at: 1, now: () => now, signal: new AbortController().signal };
    try {
      await expect(readLimits.run(l, () => dead.get('/api/v3/workspaces/1', 'none'))).rejects.toBeInstanceOf(
        ReadLimitError,
      );
      // No pause runs past the bound.
      expect(now).toBeLessThanOrEqual(1);
      expect(pauses.length).toBeLessThan(9);
      expect(l.failure).toBeInstanceOf(NetworkError);
    } finally {
      await dead.close();
    }
  });

  it('a bound already passed sends nothing', async () => {
    answer = (_q, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"id":1}');
    };
    const { c, limit } = client();
    try {
      await expect(readLimits.run(limit(0), () => c.get('/api/v3/workspaces/1', 'none'))).rejects.toBeInstanceOf(
        ReadLimitError,
      );
      expect(received).toEqual([]);
      // Outside a wait nothing bounds a request but its own --timeout.
      await expect(c.get('/api/v3/workspaces/1', 'none')).resolves.toEqual({ id: 1 });
    } finally {
      await c.close();
    }
  });
});
