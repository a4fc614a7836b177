import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { cli, http, sandbox, tokenFor } from '../helpers.js';
import { receiver } from '../fixtures/webhooks.js';

let sb: Sandbox;
let token: string;
beforeAll(async () => {
  sb = await sandbox();
  token = await tokenFor(sb, 102);
});
afterAll(() => sb.close());

const W = ['-w', '102'];
const count = async () => (await http(sb, 'GET', '/api/v3/webhook_endpoints/', { token })).body.count as number;

async function create(url = 'https://hooks.example.com/x', events = 'load_completed') {
  const r = await cli(sb, ['webhooks', 'create', ...W, '--url', url, '--events', events, '--json']);
  expect(r.code).toBe(0);
  return r.json();
}

describe('edp webhooks create', () => {
  it('creates an unverified endpoint and prints the exact object with its secret', async () => {
    const ep = await create('https://hooks.example.com/a', 'workspace_created,load_completed,workspace_created');
    expect(ep).toMatchObject({ url: 'https://hooks.example.com/a', event_types: ['workspace_created', 'load_completed'], status: 'unverified' });
    expect(ep.secret).toMatch(/^[0-9a-f]{64}$/);
  });

  it('shows the secret to a person once, with the next steps', async () => {
    const r = await cli(sb, ['webhooks', 'create', ...W, '--url', 'https://hooks.example.com/b', '--events', 'load_completed']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/secret\s+[0-9a-f]{64}/);
    expect(r.stderr).toContain('Created webhook endpoint');
    expect(r.stderr).toContain('edp webhooks verify');
  });

  it('refuses unknown event names before writing, with a suggestion (exit 2)', async () => {
    const before = await count();
    const r = await cli(sb, ['webhooks', 'create', ...W, '--url', 'https://hooks.example.com/c', '--events', 'load_complete,nonsense_thing_here']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--events');
    expect(r.stderr).toContain('"load_complete" (did you mean load_completed?)');
    expect(r.stderr).toContain('"nonsense_thing_here"');
    expect(await count()).toBe(before);
  });

  it('refuses a bad --url, malformed --events and a missing workspace (exit 2, nothing sent)', async () => {
    const before = await count();
    const url = await cli(sb, ['webhooks', 'create', ...W, '--url', 'hooks.example.com', '--events', 'load_completed']);
    expect(url.code).toBe(2);
    expect(url.stderr).toContain('--url');
    const events = await cli(sb, ['webhooks', 'create', ...W, '--url', 'https://x.example.com', '--events', ' , ']);
    expect(events.code).toBe(2);
    expect(events.stderr).toContain('--events');
    const ws = await cli(sb, ['webhooks', 'create', '--url', 'https://x.example.com', '--events', 'load_completed']);
    expect(ws.code).toBe(2);
    expect(ws.stderr).toContain('--workspace');
    expect(await count()).toBe(before);
  });

  it('warns about silent event types but subscribes', async () => {
    const r = await cli(sb, ['webhooks', 'create', ...W, '--url', 'https://hooks.example.com/s', '--events', 'connection_created', '--json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('connection_created is a valid subscription that produced no events');
  });

  it('maps an invalid token to exit 3', async () => {
    const r = await cli(sb, ['webhooks', 'list', ...W], { env: { EDP_TOKEN: 'nope', EDP_USERNAME: undefined, EDP_PASSWORD: undefined } });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('401');
  });
});

describe('edp webhooks list, get, event-types', () => {
  it('lists every endpoint of the workspace, --limit caps it', async () => {
    await create();
    await create();
    const all = await cli(sb, ['webhooks', 'list', ...W, '--json']);
    expect(all.code).toBe(0);
    expect(all.json().length).toBe(await count());
    expect(all.json().every((e: any) => e.secret === undefined)).toBe(true);
    const one = await cli(sb, ['webhooks', 'list', ...W, '--limit', '1', '--ndjson']);
    expect(one.stdout.trim().split('\n')).toHaveLength(1);
    const rows = await cli(sb, ['webhooks', 'list', ...W]);
    expect(rows.stdout.split('\n')[0]).toMatch(/^\d+\tunverified\thttps:\/\//);
  });

  it('gets one endpoint; 404 is exit 5', async () => {
    const ep = await create();
    const got = await cli(sb, ['webhooks', 'get', String(ep.id), ...W, '--json']);
    expect(got.json()).toMatchObject({ id: ep.id, status: 'unverified' });
    expect(got.json().secret).toBeUndefined();
    const missing = await cli(sb, ['webhooks', 'get', '9999', ...W]);
    expect(missing.code).toBe(5);
    expect(missing.stderr).toContain('404');
    const other = await cli(sb, ['webhooks', 'get', String(ep.id), '-w', '101']);
    expect(other.code).toBe(5);
    const bad = await cli(sb, ['webhooks', 'get', 'x1', ...W]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('endpoint id');
  });

  it('lists the 90 event types, silent ones noted', async () => {
    const r = await cli(sb, ['webhooks', 'event-types', ...W]);
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n').filter(Boolean);
    expect(lines).toHaveLength(90);
    expect(lines).toContain('workspace_created\t');
    expect(lines.find((l) => l.startsWith('connection_created\t'))).toContain('silent');
    expect((await cli(sb, ['webhooks', 'event-types', ...W, '--limit', '5', '--json'])).json()).toHaveLength(5);
  });
});

describe('edp webhooks update', () => {
  it('replaces the subscription', async () => {
    const ep = await create();
    const r = await cli(sb, ['webhooks', 'update', String(ep.id), ...W, '--events', 'load_started,load_created', '--json']);
    expect(r.code).toBe(0);
    expect(r.json().event_types).toEqual(['load_started', 'load_created']);
  });

  it('refuses unknown names (exit 2, unchanged) and a missing endpoint (exit 5)', async () => {
    const ep = await create();
    const r = await cli(sb, ['webhooks', 'update', String(ep.id), ...W, '--events', 'load_finished']);
    expect(r.code).toBe(2);
    expect((await http(sb, 'GET', `/api/v3/webhook_endpoints/${ep.id}/`, { token })).body.event_types).toEqual(['load_completed']);
    expect((await cli(sb, ['webhooks', 'update', '9999', ...W, '--events', 'load_started'])).code).toBe(5);
  });
});

describe('edp webhooks delete', () => {
  it('requires --yes without a terminal (exit 2, kept)', async () => {
    const ep = await create();
    const r = await cli(sb, ['webhooks', 'delete', String(ep.id), ...W]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--yes');
    expect((await http(sb, 'GET', `/api/v3/webhook_endpoints/${ep.id}/`, { token })).status).toBe(200);
  });

  it('deletes with --yes; a second delete is exit 5', async () => {
    const ep = await create();
    const r = await cli(sb, ['webhooks', 'delete', String(ep.id), ...W, '--yes']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`Deleted webhook endpoint ${ep.id}`);
    expect((await cli(sb, ['webhooks', 'delete', String(ep.id), ...W, '--yes'])).code).toBe(5);
  });

  it('asks on a terminal', async () => {
    const ep = await create();
    const r = await cli(sb, ['webhooks', 'delete', String(ep.id), ...W], { tty: true, stdin: 'y\n' });
    expect(r.code).toBe(0);
    expect((await http(sb, 'GET', `/api/v3/webhook_endpoints/${ep.id}/`, { token })).status).toBe(404);
  });
});

describe('edp webhooks verify and rotate-secret', () => {
  it('verifies an endpoint whose receiver echoes the challenge', async () => {
    const r = await receiver();
    try {
      const ep = await create(r.url);
      const v = await cli(sb, ['webhooks', 'verify', String(ep.id), ...W]);
      expect(v.code).toBe(0);
      expect(v.stderr).toContain('verified and active');
    } finally {
      await r.close();
    }
  });

  it('reports a failed verification with the service\'s reason (exit 2)', async () => {
    const r = await receiver(() => ({ status: 404 }));
    try {
      const ep = await create(r.url);
      const v = await cli(sb, ['webhooks', 'verify', String(ep.id), ...W]);
      expect(v.code).toBe(2);
      expect(v.stderr).toContain('Verification failed: the receiver answered 404');
      expect((await cli(sb, ['webhooks', 'verify', '9999', ...W])).code).toBe(5);
    } finally {
      await r.close();
    }
  });

  it('rotates the secret with --yes: new secret, unverified again; refuses without --yes', async () => {
    const r = await receiver();
    try {
      const ep = await create(r.url);
      expect((await cli(sb, ['webhooks', 'verify', String(ep.id), ...W])).code).toBe(0);
      const refused = await cli(sb, ['webhooks', 'rotate-secret', String(ep.id), ...W]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('--yes');
      const rotated = await cli(sb, ['webhooks', 'rotate-secret', String(ep.id), ...W, '--yes', '--json']);
      expect(rotated.code).toBe(0);
      expect(rotated.json().secret).toMatch(/^[0-9a-f]{64}$/);
      expect(rotated.json().secret).not.toBe(ep.secret);
      expect(rotated.json().status).toBe('unverified');
      expect((await cli(sb, ['webhooks', 'rotate-secret', '9999', ...W, '--yes'])).code).toBe(5);
    } finally {
      await r.close();
    }
  });

  it('keeps the secret out of the --verbose request log', async () => {
    const r = await cli(sb, ['webhooks', 'create', ...W, '--url', 'https://hooks.example.com/v', '--events', 'load_completed', '--json', '--verbose']);
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain(r.json().secret);
  });
});
