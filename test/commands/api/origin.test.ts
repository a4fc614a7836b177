import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { cli, sandbox } from '../../helpers.js';

// Credentials go only to the configured service: a path that a URL parser reads as another
// host, an absolute URL, or a paging link pointing elsewhere is refused before it is sent.

/** A server on loopback that records what reaches it (it must stay empty). */
async function listener(answer?: (req: IncomingMessage) => unknown): Promise<{
  server: Server;
  origin: string;
  seen: Array<{ url: string; authorization: string | undefined }>;
}> {
  const seen: Array<{ url: string; authorization: string | undefined }> = [];
  const server = createServer((req, res) => {
    seen.push({ url: req.url ?? '', authorization: req.headers.authorization });
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(answer ? answer(req) : {}));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

let sb: Sandbox;
let other: Awaited<ReturnType<typeof listener>>;
beforeEach(async () => {
  sb = await sandbox();
  other = await listener();
});
afterEach(async () => {
  await sb.close();
  other.server.closeAllConnections();
  await new Promise((r) => other.server.close(r));
});

describe('requests go only to the configured service', () => {
  it('edp api refuses a path that names another host, with --basic and with a workspace token (exit 2, nothing sent)', async () => {
    const host = other.origin.slice('http://'.length);
    for (const path of [`/\\${host}/x`, `//${host}/x`, `/%5C${host}/x`, `/%5c${host}/x`, `${other.origin}/x`]) {
      for (const auth of [['--basic'], ['-w', '101']]) {
        const r = await cli(sb, ['api', 'GET', path, ...auth]);
        expect(r.code, `${path} ${auth.join(' ')}: ${r.stderr}`).toBe(2);
      }
    }
    expect(other.seen).toEqual([]);
  });

  it('a paging link back to a page already read ends in an error, not a loop', async () => {
    const service = await listener((req) =>
      req.url?.startsWith('/api/v3/workspaces')
        ? { next: '/api/v3/workspaces?page=2', previous: null, results: [{ id: 101, title: 'A' }] }
        : {},
    );
    try {
      const r = await cli({ url: service.origin }, ['workspaces', 'list', '--json'], {
        env: { EDP_USERNAME: 'agency@sandbox.local', EDP_PASSWORD: 'sandbox' },
      });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('paging links go round in a circle');
      expect(service.seen.length).toBeLessThanOrEqual(3);
    } finally {
      service.server.closeAllConnections();
      await new Promise((r) => service.server.close(r));
    }
  });

  it('a paging link to another origin is refused, and nothing reaches that origin', async () => {
    // A service whose first page points its `next` at another host (no count: the link is followed).
    const service = await listener((req) =>
      req.url?.startsWith('/api/v3/workspaces')
        ? { next: `${other.origin}/api/v3/workspaces?page=2`, previous: null, results: [{ id: 101, title: 'A' }] }
        : {},
    );
    try {
      const r = await cli({ url: service.origin }, ['workspaces', 'list', '--json'], {
        env: { EDP_USERNAME: 'agency@sandbox.local', EDP_PASSWORD: 'sandbox' },
      });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`it resolves to ${other.origin}`);
      expect(other.seen).toEqual([]);
      expect(service.seen.every((s) => s.url.startsWith('/api/v3/workspaces'))).toBe(true);
    } finally {
      service.server.closeAllConnections();
      await new Promise((r) => service.server.close(r));
    }
  });
});
