import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SeenKeys, signatureMatches } from '../../src/commands/webhooks/receiver.js';
import { cli } from '../helpers.js';
import { eventually, freePort, receiver, startListen } from './support.js';

const SECRET = 'a'.repeat(64);

function signed(event: object, opts: { secret?: string; key?: string; encoding?: 'hex' | 'base64'; prefix?: string } = {}) {
  const body = JSON.stringify(event);
  const sig = createHmac('sha256', opts.secret ?? SECRET).update(body).digest(opts.encoding ?? 'hex');
  const prefix = opts.prefix ?? 'X-Service';
  const headers: Record<string, string> = { 'content-type': 'application/json', [`${prefix}-Signature`]: sig };
  if (opts.key) headers[`${prefix}-Idempotency-Key`] = opts.key;
  return { body, headers };
}

async function post(url: string, req: { body: string; headers: Record<string, string> }) {
  const res = await fetch(`${url}/hook`, { method: 'POST', ...req });
  return { status: res.status, text: await res.text() };
}

const event = (id: string, type = 'load_completed') => ({ id, type, timestamp: '2025-01-02 03:04:05.678', data: { load_id: '7' } });

describe('edp webhooks listen', () => {
  it('answers the verification GET with the challenge, matched by header suffix', async () => {
    const l = await startListen(['--secret', SECRET]);
    try {
      const res = await fetch(`${l.url}/any/path`, { headers: { 'X-Service-Verify-Token': 't', 'X-Service-Challenge': 'c-123' } });
      expect(res.status).toBe(200);
      expect(await res.text()).toBe('c-123');
      expect((await fetch(l.url)).status).toBe(400);
    } finally {
      const r = await l.stop();
      expect(r.code).toBe(0);
      expect(r.stderr).toContain(`Listening on ${l.url}`);
      expect(r.stdout).toBe('');
    }
  });

  it('prints each correctly signed event once as one JSON line; refuses bad signatures with 401', async () => {
    const l = await startListen([], { env: { EDP_WEBHOOK_SECRET: SECRET } });
    const e1 = event('evt_1');
    const pretty = { body: JSON.stringify(event('evt_2'), null, 2), headers: {} as Record<string, string> };
    pretty.headers = { 'x-service-signature': createHmac('sha256', SECRET).update(pretty.body).digest('hex') };
    try {
      expect((await post(l.url, signed(e1, { key: 'k1' }))).status).toBe(200);
      expect((await post(l.url, pretty)).status).toBe(200);
      expect((await post(l.url, signed(event('evt_3'), { encoding: 'base64', prefix: 'X-Acme' }))).status).toBe(200);
      expect((await post(l.url, signed(event('evt_bad'), { secret: 'b'.repeat(64) }))).status).toBe(401);
      const tampered = signed(event('evt_4'));
      expect((await post(l.url, { ...tampered, body: tampered.body.replace('evt_4', 'evt_5') })).status).toBe(401);
      expect((await post(l.url, { body: JSON.stringify(event('evt_6')), headers: {} })).status).toBe(401);
    } finally {
      const r = await l.stop();
      const lines = r.stdout.trim().split('\n');
      expect(lines.map((line) => JSON.parse(line).id)).toEqual(['evt_1', 'evt_2', 'evt_3']);
      expect(lines[0]).toBe(JSON.stringify(e1));
      expect(r.stderr).toContain('does not match');
      expect(r.stderr).not.toContain(SECRET);
    }
  });

  it('acknowledges a repeated idempotency key (or event id) with 200 without printing it again', async () => {
    const l = await startListen(['--secret', SECRET]);
    try {
      for (let i = 0; i < 3; i++) expect((await post(l.url, signed(event('evt_a'), { key: 'same-key' }))).status).toBe(200);
      // same event, another key: a different delivery
      expect((await post(l.url, signed(event('evt_a'), { key: 'other-key' }))).status).toBe(200);
      // no key: the event id deduplicates
      expect((await post(l.url, signed(event('evt_b')))).status).toBe(200);
      expect((await post(l.url, signed(event('evt_b')))).text).toContain('duplicate');
    } finally {
      const r = await l.stop();
      expect(r.stdout.trim().split('\n').map((line) => JSON.parse(line).id)).toEqual(['evt_a', 'evt_a', 'evt_b']);
    }
  });

  it('refuses a body over 1 MiB with 413', async () => {
    const l = await startListen(['--secret', SECRET]);
    try {
      const big = signed({ ...event('evt_big'), data: { blob: 'x'.repeat(1024 * 1024) } });
      const res = await post(l.url, big).catch(() => ({ status: 413, text: 'connection closed after the answer' }));
      expect(res.status).toBe(413);
      // just under the limit is fine
      const fits = signed({ ...event('evt_fits'), data: { blob: 'x'.repeat(1024 * 1024 - 200) } });
      expect((await post(l.url, fits)).status).toBe(200);
    } finally {
      const r = await l.stop();
      expect(r.stdout.trim().split('\n').map((line) => JSON.parse(line).id)).toEqual(['evt_fits']);
      expect(r.stderr).toContain('413');
    }
  });

  it('--events prints only the named types and still acknowledges the others', async () => {
    const l = await startListen(['--secret', SECRET, '--events', 'load_started,load_completed']);
    try {
      expect((await post(l.url, signed(event('evt_1', 'workspace_created')))).status).toBe(200);
      expect((await post(l.url, signed(event('evt_2', 'load_started')))).status).toBe(200);
    } finally {
      const r = await l.stop();
      expect(r.stdout.trim().split('\n').map((line) => JSON.parse(line).type)).toEqual(['load_started']);
    }
  });

  it('--forward-to re-posts the raw body with its signature after acknowledging', async () => {
    const target = await receiver();
    const l = await startListen(['--secret', SECRET, '--forward-to', target.url]);
    try {
      const delivery = signed(event('evt_fwd'), { key: 'fwd-1' });
      expect((await post(l.url, delivery)).status).toBe(200);
      const forwarded = await eventually(() => target.posts()[0]);
      expect(forwarded.body).toBe(delivery.body);
      expect(forwarded.headers['x-service-signature']).toBe(delivery.headers['X-Service-Signature']);
      expect(forwarded.headers['x-service-idempotency-key']).toBe('fwd-1');
    } finally {
      await l.stop();
      await target.close();
    }
  });

  it('warns when the forward target fails, and keeps acknowledging', async () => {
    const l = await startListen(['--secret', SECRET, '--forward-to', 'http://127.0.0.1:1/down']);
    expect((await post(l.url, signed(event('evt_x')))).status).toBe(200);
    await new Promise((r) => setTimeout(r, 100));
    const r = await l.stop();
    expect(r.stderr).toContain('could not forward load_completed');
    expect(r.stdout).toContain('evt_x');
  });

  it('refuses bad input before listening (exit 2)', async () => {
    const noSecret = await cli(undefined, ['webhooks', 'listen', '--port', '0'], { env: { EDP_WEBHOOK_SECRET: undefined } });
    expect(noSecret.code).toBe(2);
    expect(noSecret.stderr).toContain('--secret');
    expect(noSecret.stderr).toContain('EDP_WEBHOOK_SECRET');
    const badForward = await cli(undefined, ['webhooks', 'listen', '--secret', SECRET, '--forward-to', 'ftp://x']);
    expect(badForward.code).toBe(2);
    expect(badForward.stderr).toContain('--forward-to');
    const badPort = await cli(undefined, ['webhooks', 'listen', '--secret', SECRET, '--port', '70000']);
    expect(badPort.code).toBe(2);
    expect(badPort.stderr).toContain('--port');
    const badEvents = await cli(undefined, ['webhooks', 'listen', '--secret', SECRET, '--events', 'Load Completed']);
    expect(badEvents.code).toBe(2);
    expect(badEvents.stderr).toContain('--events');
  });

  it('names the port when it is taken (exit 2)', async () => {
    const port = await freePort();
    const l = await startListen(['--secret', SECRET], { port });
    try {
      const r = await cli(undefined, ['webhooks', 'listen', '--secret', SECRET, '--port', String(port)]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`--port ${port} is already in use`);
    } finally {
      await l.stop();
    }
  });
});

describe('receiver internals', () => {
  it('matches hex (any case) and base64 signatures, nothing else', () => {
    const body = Buffer.from('{"a":1}');
    const digest = createHmac('sha256', SECRET).update(body).digest();
    expect(signatureMatches(SECRET, body, digest.toString('hex'))).toBe(true);
    expect(signatureMatches(SECRET, body, digest.toString('hex').toUpperCase())).toBe(true);
    expect(signatureMatches(SECRET, body, digest.toString('base64'))).toBe(true);
    expect(signatureMatches(SECRET, body, digest.toString('hex').slice(0, 62))).toBe(false);
    expect(signatureMatches('other', body, digest.toString('hex'))).toBe(false);
    expect(signatureMatches(SECRET, body, '')).toBe(false);
  });

  it('remembers keys for the whole window, then forgets them; memory stays bounded', () => {
    let now = 0;
    const seen = new SeenKeys(10 * 60_000, 3, () => now);
    expect(seen.seen('a')).toBe(false);
    now = 10 * 60_000 - 1;
    expect(seen.seen('a')).toBe(true);
    now = 10 * 60_000;
    expect(seen.seen('a')).toBe(false);
    for (const k of ['b', 'c', 'd', 'e']) seen.seen(k);
    expect(seen.size).toBe(3);
    expect(seen.seen('e')).toBe(true);
  });
});
