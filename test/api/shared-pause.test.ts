import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, type AuthProvider } from '../../src/api/client.js';
import type { RetryNotice } from '../../src/api/retry.js';

/**
 * A service that asks to slow down: the first answers are 503 (or 429) with Retry-After (an
 * hour, which the client caps at a minute), then 200. The client's `sleep` records each wait
 * and returns at once, so the pause is still on (by the clock) for every request of a test.
 */
let server: Server;
let url: string;
let refuse: { status: number; count: number };
let received: Array<{ method: string; url: string; waitsBefore: number }>;
let waits: number[];

beforeAll(async () => {
  server = createServer((req, res) => {
    received.push({ method: req.method!, url: req.url!, waitsBefore: waits.length });
    req.resume();
    req.on('end', () => {
      if (refuse.count > 0) {
        refuse.count--;
        res.writeHead(refuse.status, { 'content-type': 'application/json', 'retry-after': '3600' });
        res.end(JSON.stringify({ code: 'service_unavailable', message: 'later', details: {} }));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: 1 }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const auth: AuthProvider = {
  headers: async () => ({}),
  renew: async () => false,
  used: () => undefined,
};

/** A client against the service; `onNotice` lets a test start requests while a pause is on. */
function client(onNotice: (n: RetryNotice) => void = () => undefined) {
  const notices: RetryNotice[] = [];
  const c = new ApiClient({
    baseUrl: url,
    timeoutMs: 5000,
    auth,
    onRetry: (n) => {
      notices.push(n);
      onNotice(n);
    },
    sleep: async (ms) => {
      waits.push(ms);
    },
  });
  return { c, notices };
}

function reset(status: number, refusals: number) {
  refuse = { status, count: refusals };
  received = [];
  waits = [];
}

const read = (c: ApiClient, i: number) => c.get(`/api/v3/workspaces/${i}/`, 'basic', undefined, ['id']);

describe('a service that asks to slow down', () => {
  it('one 503 pauses every request of the run, said once; the refused read is sent again after the pause', async () => {
    reset(503, 1);
    const { c, notices } = client();
    try {
      // Ten reads at once; the first answer asks for an hour, which is capped at a minute.
      const results = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => read(c, i)));
      expect(results.every((r) => r.status === 'fulfilled')).toBe(true);
      expect(notices).toHaveLength(1);
      expect(notices[0]).toMatchObject({ everyone: true, delayMs: 60_000, cause: { kind: 'status', status: 503 } });
      expect(received).toHaveLength(11);
      expect(received.at(-1)!.waitsBefore).toBeGreaterThanOrEqual(1);
      expect(waits[0]).toBeGreaterThan(59_000);
    } finally {
      await c.close();
    }
  });

  it('a request started during the pause waits for it before it is sent', async () => {
    reset(503, 1);
    let during: Promise<unknown> | undefined;
    const { c, notices } = client(() => {
      during ??= read(c, 2);
    });
    try {
      await read(c, 1);
      await during;
      expect(notices).toHaveLength(1);
      // Two waits for the pause: the refused read's, and the new one's before it was sent.
      expect(waits).toHaveLength(2);
      expect(waits.every((ms) => ms > 59_000)).toBe(true);
      const second = received.find((r) => r.url === '/api/v3/workspaces/2/')!;
      expect(second.waitsBefore).toBe(2);
    } finally {
      await c.close();
    }
  });

  it('several refusals in one pause extend it quietly; a write refused with 429 is repeated (nothing was done)', async () => {
    reset(429, 3);
    const { c, notices } = client();
    try {
      const results = await Promise.allSettled(
        Array.from({ length: 3 }, (_, i) =>
          c.request({ method: 'POST', path: `/api/v3/things/${i}/`, auth: 'basic', body: {}, expect: ['id'] }),
        ),
      );
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
      expect(notices).toHaveLength(1);
      expect(notices[0]).toMatchObject({ everyone: true, cause: { status: 429 } });
      expect(received).toHaveLength(6);
      // Each repeat waited for the pause.
      expect(received.slice(3).every((r) => r.waitsBefore >= 1)).toBe(true);
      expect(waits).toHaveLength(3);
    } finally {
      await c.close();
    }
  });
});
