import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { cli, freshConfig } from '../helpers.js';

// A request that TLS refuses (an untrusted certificate, a failed handshake) or that cannot be
// written (a header value HTTP cannot carry) was never sent: it is reported as such, once,
// never retried and never "outcome unknown". The certificate in fixtures/tls is self-signed
// for localhost and 127.0.0.1, valid from 2000 to 2100 (made with `openssl ca -selfsign`).

const tls = {
  key: readFileSync(new URL('../fixtures/tls/key.pem', import.meta.url)),
  cert: readFileSync(new URL('../fixtures/tls/cert.pem', import.meta.url)),
};

let servers: Server[] = [];
afterEach(async () => {
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
  servers = [];
});

/** Starts `server` on loopback and counts the connections and requests that reach it. */
async function start(server: Server): Promise<{ port: number; connections: () => number; requests: string[] }> {
  let connections = 0;
  const requests: string[] = [];
  server.on('connection', () => connections++);
  server.on('request', (req) => requests.push(`${req.method} ${req.url}`));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  servers.push(server);
  return { port: (server.address() as AddressInfo).port, connections: () => connections, requests };
}

const answer: Parameters<typeof createHttpServer>[1] = (req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(req.url === '/api/v3/token' ? JSON.stringify({ token: 'bad\u0001token' }) : '{"ok":true}');
};

describe('requests that were never sent', () => {
  it('an untrusted certificate is an error at once, for a read and for a write (exit 1, not retried)', async () => {
    const s = await start(createHttpsServer(tls, answer));
    const env = { EDP_TOKEN: 'tok', EDP_WORKSPACE: '1', EDP_BASE_URL: `https://127.0.0.1:${s.port}` };
    for (const argv of [
      ['api', 'GET', '/api/v3/x'],
      ['api', 'POST', '/api/v3/x', '-f', 'a=b'],
    ]) {
      const before = s.connections();
      const r = await cli(undefined, ['-w', '1', ...argv], { env });
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toContain(
        `the TLS certificate of https://127.0.0.1:${s.port} is not trusted: self-signed certificate; nothing was sent`,
      );
      expect(r.stderr).toContain('(DEPTH_ZERO_SELF_SIGNED_CERT)');
      expect(r.stderr).toContain('NODE_EXTRA_CA_CERTS');
      expect(r.stderr).not.toMatch(/outcome unknown|retrying/);
      expect(s.connections() - before).toBe(1);
    }
    const json = await cli(undefined, ['-w', '1', 'api', 'POST', '/api/v3/x', '-f', 'a=b', '--json'], { env });
    expect(json.errorJson().error.code).toBe('network_error');
    expect(s.requests).toEqual([]);
  });

  it('a TLS handshake with a server that speaks plain HTTP fails at once and says so', async () => {
    const s = await start(createHttpServer(answer));
    const r = await cli(undefined, ['-w', '1', 'api', 'PUT', '/api/v3/x', '-f', 'a=b'], {
      env: { EDP_TOKEN: 'tok', EDP_WORKSPACE: '1', EDP_BASE_URL: `https://127.0.0.1:${s.port}` },
    });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain('the TLS handshake with');
    expect(r.stderr).toContain('nothing was sent (ERR_SSL_WRONG_VERSION_NUMBER)');
    expect(r.stderr).toContain('plain HTTP');
    expect(r.stderr).not.toMatch(/outcome unknown|retrying/);
    expect(s.connections()).toBe(1);
  });

  it('a header value HTTP cannot carry: EDP_TOKEN is a usage error (exit 2), a token the service issued an error (exit 1)', async () => {
    const s = await start(createHttpServer(answer));
    const base = `http://127.0.0.1:${s.port}`;
    const typed = await cli(undefined, ['-w', '1', 'api', 'POST', '/api/v3/x', '-f', 'a=b'], {
      env: { EDP_TOKEN: 'tok\nX-Injected: 1', EDP_WORKSPACE: '1', EDP_BASE_URL: base },
    });
    expect(typed.code, typed.stderr).toBe(2);
    expect(typed.stderr).toContain('EDP_TOKEN holds a character a header cannot carry');
    expect(s.requests).toEqual([]);

    const issued = await cli(undefined, ['-w', '1', 'api', 'POST', '/api/v3/x', '-f', 'a=b'], {
      env: { EDP_CONFIG_DIR: freshConfig().dir, EDP_BASE_URL: base },
    });
    expect(issued.code, issued.stderr).toBe(1);
    expect(issued.stderr).toContain('the request could not be written: invalid authorization header; nothing was sent');
    expect(issued.stderr).not.toMatch(/outcome unknown|retrying/);
    expect(s.requests).toEqual(['POST /api/v3/token']);
  });
});
