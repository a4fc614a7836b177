import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { cli, type CliResult } from '../helpers.js';
import type { AddressInfo } from 'node:net';

export interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A scripted receiver for sandbox tests: records every request and answers with what `answer`
 * returns (default: the challenge to a GET, 200 to a POST).
 */
/** An answer to a request; undefined gives the default one. */
export type Answer = { status: number; body?: string } | undefined;

export async function receiver(answer?: (req: Received, index: number) => Answer): Promise<{
  url: string;
  received: Received[];
  posts(): Received[];
  close(): Promise<void>;
}> {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      const r: Received = { method: req.method!, url: req.url!, headers: req.headers, body };
      received.push(r);
      const fallback = r.method === 'GET' ? { status: 200, body: String(r.headers['x-service-challenge'] ?? '') } : { status: 200, body: 'ok' };
      const a = answer?.(r, received.length - 1) ?? fallback;
      res.writeHead(a.status, { 'content-type': 'text/plain' }).end(a.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    posts: () => received.filter((r) => r.method === 'POST'),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Polls until `check` returns a value other than undefined (or fails after `ms`). */
export async function eventually<T>(check: () => T | undefined | Promise<T | undefined>, ms = 5000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A port that was free a moment ago. */
export async function freePort(): Promise<number> {
  const { createServer: createNetServer } = await import('node:net');
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** `edp webhooks listen` running in-process until `stop()`, which resolves to its result. */
export async function startListen(args: string[], opts: { port?: number; env?: Record<string, string> } = {}) {
  const port = opts.port ?? (await freePort());
  const controller = new AbortController();
  const done = cli(undefined, ['webhooks', 'listen', '--port', String(port), ...args], { signal: controller.signal, env: opts.env });
  const url = `http://127.0.0.1:${port}`;
  let early: CliResult | undefined;
  void done.then((r) => (early = r));
  await eventually(async () => {
    if (early) throw new Error(`listen ended early (exit ${early.code}): ${early.stderr}`);
    try {
      const res = await fetch(url, { headers: { 'x-probe-challenge': 'ready' } });
      return res.status === 200 ? true : undefined;
    } catch {
      return undefined;
    }
  });
  return {
    url,
    port,
    async stop(): Promise<CliResult> {
      controller.abort();
      return done;
    },
  };
}
