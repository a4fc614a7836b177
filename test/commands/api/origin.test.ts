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

  it('edp api refuses a path that dot segments or encoded separators make another host as sent (exit 2, nothing sent)', async () => {
    // The configured service records what reaches it: not even a token request may arrive.
    const service = await listener();
    try {
      const host = other.origin.slice('http://'.length);
      const paths = [
        `/.//${host}/x`,
        `/a/..//${host}/x`,
        `/%2e//${host}/x`,
        `/%2E%2E//${host}/x`,
        `/.%2e//${host}/x`,
        `/./%2f/${host}/x`,
        `/./%2F%2F${host}/x`,
        `/a/..%2f/${host}/x`,
        `/%2e%2e%2f%2f${host}/x`,
        `/a/%2e%2e/%5c/${host}/x`,
      ];
      for (const path of paths) {
        for (const auth of [['--basic'], ['-w', '101']]) {
          const r = await cli({ url: service.origin }, ['api', 'GET', path, ...auth]);
          expect(r.code, `${path} ${auth.join(' ')}: ${r.stderr}`).toBe(2);
          expect(r.stderr, path).toMatch(/another host|not another host/);
        }
      }
      expect(service.seen).toEqual([]);
      expect(other.seen).toEqual([]);
    } finally {
      service.server.closeAllConnections();
      await new Promise((r) => service.server.close(r));
    }
  });

  it('edp api chooses the credentials for the path as it is sent, dot segments resolved', async () => {
    const service = await listener();
    try {
      const env = { EDP_TOKEN: 'tok-workspace', EDP_WORKSPACE: '101' };
      let r = await cli({ url: service.origin }, ['-w', '101', 'api', 'GET', '/api/v3/workspaces/../datasources/'], {
        env,
      });
      expect(r.code, r.stderr).toBe(0);
      r = await cli({ url: service.origin }, ['-w', '101', 'api', 'GET', '/api/v3/datasources/%2E%2e/workspaces'], {
        env,
      });
      expect(r.code, r.stderr).toBe(0);
      expect(service.seen.map((s) => [s.url, s.authorization?.split(' ')[0]])).toEqual([
        ['/api/v3/datasources/', 'Bearer'],
        ['/api/v3/workspaces', 'Basic'],
      ]);
    } finally {
      service.server.closeAllConnections();
      await new Promise((r) => service.server.close(r));
    }
  });

  it('a paging link whose dot segments make it another host is refused, and nothing reaches that host', async () => {
    const host = other.origin.slice('http://'.length);
    const service = await listener((req) =>
      req.url?.startsWith('/api/v3/workspaces')
        ? { next: `/api/../..//${host}/x`, previous: null, results: [{ id: 101, title: 'A' }] }
        : {},
    );
    try {
      const r = await cli({ url: service.origin }, ['workspaces', 'list', '--json'], {
        env: { EDP_USERNAME: 'agency@sandbox.local', EDP_PASSWORD: 'sandbox' },
      });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(`it names another host as it would be sent, //${host}/x`);
      expect(service.seen.map((s) => s.url)).toEqual(['/api/v3/workspaces?page=1&page_size=100']);
      expect(other.seen).toEqual([]);
    } finally {
      service.server.closeAllConnections();
      await new Promise((r) => service.server.close(r));
    }
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
