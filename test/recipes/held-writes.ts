import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A pass-through proxy in front of a sandbox that holds the first `count` requests matching
 * `held` until all of them have arrived, then lets them through one after the other. Two
 * writers that both read before either writes: a stale read, made certain instead of likely.
 */
export async function holdWrites(target: string, count: number, held: (method: string, path: string) => boolean): Promise<{ url: string; close(): Promise<void> }> {
  const waiting: Array<() => Promise<void>> = [];
  let open = false;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const pass = async () => {
        const headers: Record<string, string> = {};
        for (const k of ['authorization', 'content-type', 'accept', 'user-agent']) if (typeof req.headers[k] === 'string') headers[k] = req.headers[k];
        const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
        const answer = await fetch(`${target}${req.url}`, { method: req.method, headers, body, redirect: 'manual' });
        const out: Record<string, string> = {};
        answer.headers.forEach((v, k) => {
          if (k !== 'content-length' && k !== 'transfer-encoding' && k !== 'connection' && k !== 'keep-alive') out[k] = v;
        });
        res.writeHead(answer.status, out).end(Buffer.from(await answer.arrayBuffer()));
      };
      const passOrFail = () => pass().catch((err: Error) => void res.writeHead(599).end(err.message));
      if (open || !held(req.method!, req.url!)) return void passOrFail();
      waiting.push(passOrFail);
      if (waiting.length === count) {
        open = true;
        void (async () => {
          for (const p of waiting) await p();
        })();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
