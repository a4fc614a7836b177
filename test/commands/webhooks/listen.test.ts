import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { DeliveryForwarder } from '../../../src/api/forwarder.js';
import { forwardDelivery } from '../../../src/commands/webhooks/listen.js';
import {
  signatureMatches,
  startReceiver,
  type DeliveryOutcome,
} from '../../../src/commands/webhooks/shared/receiver.js';
import { ReplayWindow } from '../../../src/commands/webhooks/shared/replay-window.js';
import { cli, http, settleClock, useSandbox, waitUntil } from '../../helpers.js';
import { freePort, receiver, startListen } from '../../fixtures/webhooks.js';

const SECRET = 'a'.repeat(64);

function signed(
  event: object,
  opts: { secret?: string; key?: string; encoding?: 'hex' | 'base64'; prefix?: string } = {},
) {
  const body = JSON.stringify(event);
  const sig = createHmac('sha256', opts.secret ?? SECRET)
    .update(body)
    .digest(opts.encoding ?? 'hex');
  const prefix = opts.prefix ?? 'X-Service';
  const headers: Record<string, string> = { 'content-type': 'application/json', [`${prefix}-Signature`]: sig };
  if (opts.key) headers[`${prefix}-Idempotency-Key`] = opts.key;
  return { body, headers };
}

async function post(url: string, req: { body: string; headers: Record<string, string> }) {
  const res = await fetch(`${url}/hook`, { method: 'POST', ...req });
  return { status: res.status, text: await res.text() };
}

/** A time in the contract's timestamp shape, `YYYY-MM-DD HH:MM:SS.mmm` (UTC). */
const stamp = (ms: number) => new Date(ms).toISOString().replace('T', ' ').replace('Z', '');

const MINUTE = 60_000;

const event = (id: string, type = 'load_completed', timestamp = stamp(Date.now())) => ({
  id,
  type,
  timestamp,
  data: { load_id: '7' },
});

const printedIds = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line).id as string);

describe('edp webhooks listen', () => {
  it('answers the verification GET with the challenge, matched by header suffix', async () => {
    const l = await startListen(['--secret', SECRET]);
    try {
      const res = await fetch(`${l.url}/any/path`, {
        headers: { 'X-Service-Verify-Token': SECRET, 'X-Service-Challenge': 'c-123' },
      });
      expect(res.status).toBe(200);
      expect(await res.text()).toBe('c-123');
      // without a verify token the challenge is still answered: the contract does not promise the header
      const bare = await fetch(`${l.url}/any/path`, { headers: { 'X-Other-Challenge': 'c-456' } });
      expect(await bare.text()).toBe('c-456');
      expect((await fetch(l.url)).status).toBe(400);
    } finally {
      const r = await l.stop();
      expect(r.code).toBe(0);
      expect(r.stderr).toContain(`Listening on ${l.url}`);
      expect(r.stdout).toBe('');
    }
  });

  it('refuses a verification GET whose verify token is not its secret (401), without echoing the challenge', async () => {
    const l = await startListen(['--secret', SECRET]);
    try {
      for (const token of ['t', SECRET.slice(1), `${SECRET}b`]) {
        const res = await fetch(`${l.url}/hook`, {
          headers: { 'X-Service-Verify-Token': token, 'X-Service-Challenge': 'c-789' },
        });
        expect(res.status).toBe(401);
        expect(await res.text()).not.toContain('c-789');
      }
    } finally {
      const r = await l.stop();
      expect(r.stderr).toContain('verify token is not the secret');
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

  it('prints an event once whatever idempotency keys its deliveries carry: repeats are told by the signed id', async () => {
    const l = await startListen(['--secret', SECRET]);
    const a = event('evt_a');
    const long = `{"id":12345678901234567891,"type":"load_completed","timestamp":"${stamp(Date.now())}","data":{}}`;
    const near = long.replace('12345678901234567891', '12345678901234567892');
    const sig = (body: string) => createHmac('sha256', SECRET).update(body).digest('hex');
    try {
      for (let i = 0; i < 3; i++) expect((await post(l.url, signed(a, { key: 'same-key' }))).status).toBe(200);
      // The idempotency key is not signed: the same event under another key, or none, is a repeat.
      expect(await post(l.url, signed(a, { key: 'other-key' }))).toEqual({ status: 200, text: 'ok (duplicate)\n' });
      expect((await post(l.url, signed(a))).text).toBe('ok (duplicate)\n');
      // Another event with the key of the first is not a repeat of it.
      expect((await post(l.url, signed(event('evt_b'), { key: 'same-key' }))).text).toBe('ok\n');
      // The same id with another type is another event.
      expect((await post(l.url, signed(event('evt_a', 'load_started')))).text).toBe('ok\n');
      // A numeric id, even one past double precision, identifies its event exactly.
      for (const text of ['ok\n', 'ok (duplicate)\n'])
        expect((await post(l.url, { body: long, headers: { 'X-Service-Signature': sig(long) } })).text).toBe(text);
      expect((await post(l.url, { body: near, headers: { 'X-Service-Signature': sig(near) } })).text).toBe('ok\n');
    } finally {
      const r = await l.stop();
      expect(r.stdout.trim().split('\n').slice(3)).toEqual([long, near]);
      expect(printedIds(r.stdout).slice(0, 3)).toEqual(['evt_a', 'evt_b', 'evt_a']);
      expect(r.stderr).toContain('acknowledged a repeated delivery (load_completed evt_a, idempotency key other-key)');
      expect(r.stderr).toContain('acknowledged a repeated delivery (load_completed evt_a)');
    }
  });

  it('refuses a signed delivery stamped outside the replay window, or without an id or timestamp, with 400 and the reason', async () => {
    const l = await startListen(['--secret', SECRET]);
    const now = Date.now();
    const old = event('evt_old', 'load_completed', stamp(now - 2 * 60 * MINUTE));
    const ahead = event('evt_ahead', 'load_completed', stamp(now + 30 * MINUTE));
    const late = event('evt_late', 'load_completed', stamp(now - 50 * MINUTE));
    try {
      expect(await post(l.url, signed(old, { key: 'k-old' }))).toEqual({
        status: 400,
        text: 'timestamp outside the replay window\n',
      });
      expect((await post(l.url, signed(ahead))).status).toBe(400);
      const { timestamp: _, ...untimed } = event('evt_untimed');
      expect(await post(l.url, signed(untimed))).toEqual({ status: 400, text: 'missing or unreadable timestamp\n' });
      expect(
        (await post(l.url, signed({ ...event('evt_bad_time'), timestamp: '2025-02-30 10:00:00.000' }))).status,
      ).toBe(400);
      const { id: __, ...anonymous } = event('evt_x');
      expect(await post(l.url, signed(anonymous))).toEqual({ status: 400, text: 'missing event id\n' });
      // 50 minutes after the event is late, but inside the window: printed.
      expect((await post(l.url, signed(late))).status).toBe(200);
    } finally {
      const r = await l.stop();
      expect(printedIds(r.stdout)).toEqual(['evt_late']);
      expect(r.stderr).toContain(
        `refused load_completed evt_old stamped ${old.timestamp}: it is 120 min old, older than the 60 min replay window (400)`,
      );
      expect(r.stderr).toContain('evt_ahead stamped');
      expect(r.stderr).toContain("ahead of this machine's clock");
      expect(r.stderr).toContain('refused load_completed evt_untimed: no timestamp shaped YYYY-MM-DD HH:MM:SS.mmm');
      expect(r.stderr).toContain('refused a signed delivery without an event id');
      expect(r.stderr).toContain('its signed id is remembered until its timestamp is 60 min old');
    }
  });

  it('--forward-to: 100 replays of captured deliveries under new idempotency keys reach the target once', async () => {
    const target = await receiver();
    const l = await startListen(['--secret', SECRET, '--forward-to', target.url]);
    const captured = Array.from({ length: 5 }, (_, i) => signed(event(`evt_cap_${i}`), { key: `genuine-${i}` }));
    try {
      for (const c of captured) expect((await post(l.url, c)).status).toBe(200);
      const replays = Array.from({ length: 100 }, (_, i) => {
        const c = captured[i % captured.length]!;
        return { body: c.body, headers: { ...c.headers, 'X-Service-Idempotency-Key': `replay-${i}` } };
      });
      const answers = await Promise.all(replays.map((r) => post(l.url, r)));
      expect(answers.every((a) => a.status === 200)).toBe(true);
      expect(target.posts().map((p) => JSON.parse(p.body).id)).toEqual(captured.map((_, i) => `evt_cap_${i}`));
    } finally {
      const r = await l.stop();
      expect(printedIds(r.stdout)).toEqual(captured.map((_, i) => `evt_cap_${i}`));
      await target.close();
    }
  });

  it('an event delivered to two endpoints is printed once for each, and its repeats for neither', async () => {
    const other = 'b'.repeat(64);
    const l = await startListen(['--secret', SECRET, '--secret', other]);
    const e = event('evt_both', 'workspace_created');
    try {
      expect((await post(l.url, signed(e, { key: 'k1' }))).text).toBe('ok\n');
      expect((await post(l.url, signed(e, { key: 'k2', secret: other }))).text).toBe('ok\n');
      expect((await post(l.url, signed(e, { key: 'k3' }))).text).toBe('ok (duplicate)\n');
      expect((await post(l.url, signed(e, { key: 'k4', secret: other }))).text).toBe('ok (duplicate)\n');
    } finally {
      const r = await l.stop();
      expect(printedIds(r.stdout)).toEqual(['evt_both', 'evt_both']);
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
      expect(
        r.stdout
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line).id),
      ).toEqual(['evt_fits']);
      expect(r.stderr).toContain('413');
    }
  });

  it('refuses a signed body nested thousands deep with 400 and goes on listening', async () => {
    const l = await startListen(['--secret', SECRET]);
    try {
      // 6 KB with a line break: re-serialised, it overflowed the stack and ended the listener.
      const text = `{"id":"evt_deep","type":"load_completed",\n"data":${'['.repeat(3000)}${']'.repeat(3000)}}`;
      const sig = createHmac('sha256', SECRET).update(text).digest('hex');
      const deep = await post(l.url, { body: text, headers: { 'X-Service-Signature': sig } });
      expect(deep).toEqual({ status: 400, text: 'body nested too deep\n' });
      // Nested a little, with a line break, the event is printed on one line.
      const fine = `{"id":"evt_ok","type":"load_completed","timestamp":"${stamp(Date.now())}",\n"data":${'['.repeat(20)}${']'.repeat(20)}}`;
      const fineSig = createHmac('sha256', SECRET).update(fine).digest('hex');
      expect((await post(l.url, { body: fine, headers: { 'X-Service-Signature': fineSig } })).status).toBe(200);
    } finally {
      const r = await l.stop();
      expect(r.code).toBe(0);
      expect(
        r.stdout
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line).id),
      ).toEqual(['evt_ok']);
      expect(r.stderr).toContain('nested deeper than 256 levels (400)');
    }
  });

  it('--events prints only the named types and still acknowledges the others', async () => {
    const l = await startListen(['--secret', SECRET, '--events', 'load_started,load_completed']);
    try {
      expect((await post(l.url, signed(event('evt_1', 'workspace_created')))).status).toBe(200);
      expect((await post(l.url, signed(event('evt_2', 'load_started')))).status).toBe(200);
    } finally {
      const r = await l.stop();
      expect(
        r.stdout
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line).type),
      ).toEqual(['load_started']);
    }
  });

  it("--forward-to re-posts the raw body with its signature, and answers with the target's status", async () => {
    const target = await receiver(() => ({ status: 202 }));
    const l = await startListen(['--secret', SECRET, '--forward-to', target.url]);
    const fwd = event('evt_fwd');
    try {
      const delivery = signed(fwd, { key: 'fwd-1' });
      expect((await post(l.url, delivery)).status).toBe(202);
      const forwarded = target.posts()[0]!;
      expect(forwarded.body).toBe(delivery.body);
      expect(forwarded.headers['x-service-signature']).toBe(delivery.headers['X-Service-Signature']);
      expect(forwarded.headers['x-service-idempotency-key']).toBe('fwd-1');
    } finally {
      const r = await l.stop();
      expect(r.stdout).toBe(`${JSON.stringify(fwd)}\n`);
      expect(r.stderr).toMatch(/forwarded load_completed evt_fwd: 202 in \d+ ms/);
      await target.close();
    }
  });

  it("--forward-to: a failing target gets the service's redeliveries; each event is printed once it got through", async () => {
    // The target refuses the first delivery of every event and takes the second.
    const tries = new Map<string, number>();
    const target = await receiver((req) => {
      const id = JSON.parse(req.body).id as string;
      tries.set(id, (tries.get(id) ?? 0) + 1);
      return { status: tries.get(id) === 1 ? 500 : 200 };
    });
    const l = await startListen(['--secret', SECRET, '--forward-to', target.url]);
    const ids = Array.from({ length: 10 }, (_, i) => `evt_${i}`);
    try {
      for (const id of ids) expect((await post(l.url, signed(event(id), { key: `k-${id}` }))).status).toBe(500);
      // the service delivers each again with the same idempotency key
      for (const id of ids) expect((await post(l.url, signed(event(id), { key: `k-${id}` }))).status).toBe(200);
      // a third copy is a duplicate: acknowledged, neither forwarded nor printed
      expect((await post(l.url, signed(event('evt_0'), { key: 'k-evt_0' }))).text).toContain('duplicate');
      expect(target.posts()).toHaveLength(20);
      expect(
        new Set(
          target
            .posts()
            .filter((_, i) => i >= 10)
            .map((p) => JSON.parse(p.body).id),
        ),
      ).toEqual(new Set(ids));
    } finally {
      const r = await l.stop();
      expect(
        r.stdout
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line).id),
      ).toEqual(ids);
      expect(r.stderr).toMatch(
        /forwarding load_completed evt_0 failed: the target answered 500 in \d+ ms; answered 500/,
      );
      expect(r.stderr).toMatch(/forwarded load_completed evt_0: 200 in \d+ ms/);
      await target.close();
    }
  });

  it('--forward-to: an unreachable target answers 502 and nothing is printed or remembered', async () => {
    const l = await startListen(['--secret', SECRET, '--forward-to', `http://127.0.0.1:${await freePort()}/down`]);
    const first = await post(l.url, signed(event('evt_x'), { key: 'kx' }));
    const again = await post(l.url, signed(event('evt_x'), { key: 'kx' }));
    const r = await l.stop();
    expect([first.status, again.status]).toEqual([502, 502]);
    expect(again.text).not.toContain('duplicate');
    expect(r.stdout).toBe('');
    expect(r.stderr.match(/forwarding load_completed evt_x failed: .*\(\d+ ms\); answered 502/g)).toHaveLength(2);
  });

  it('--quiet leaves out the forwarding notes', async () => {
    const target = await receiver();
    const l = await startListen(['--secret', SECRET, '--forward-to', target.url, '--quiet']);
    expect((await post(l.url, signed(event('evt_q')))).status).toBe(200);
    const r = await l.stop();
    await target.close();
    expect(r.stdout).toContain('evt_q');
    expect(r.stderr).not.toContain('forwarded');
  });

  it('accepts and prints timestamps with six fractional digits exactly as sent', async () => {
    const l = await startListen(['--secret', SECRET]);
    const e = { ...event('evt_us'), timestamp: `${new Date().toISOString().slice(0, -1)}456Z` };
    expect((await post(l.url, signed(e))).status).toBe(200);
    const r = await l.stop();
    expect(r.stdout).toBe(`${JSON.stringify(e)}\n`);
  });

  it('refuses bad input before listening (exit 2)', async () => {
    const noSecret = await cli(undefined, ['webhooks', 'listen', '--port', '0'], {
      env: { EDP_WEBHOOK_SECRET: undefined },
    });
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

  it('hands on a repeat that arrives while the first copy is still being handed on only once, with the same answer', async () => {
    let release!: (o: DeliveryOutcome) => void;
    const held = new Promise<DeliveryOutcome>((r) => (release = r));
    const handed: string[] = [];
    const notes: string[] = [];
    const r = await startReceiver({
      secrets: () => [SECRET],
      host: '127.0.0.1',
      port: 0,
      onEvent: (d) => {
        handed.push(d.id!);
        return held;
      },
      onNote: (_kind, text) => notes.push(text),
    });
    try {
      const first = post(r.url, signed(event('evt_c'), { key: 'kc' }));
      await waitUntil(() => (handed.length === 1 ? true : undefined));
      const second = post(r.url, signed(event('evt_c'), { key: 'kc' }));
      await waitUntil(() =>
        notes.some((n) => n.includes('while the first is still being handed on')) ? true : undefined,
      );
      release({ status: 503, delivered: false });
      expect([(await first).status, (await second).status]).toEqual([503, 503]);
      expect(handed).toEqual(['evt_c']);
      // not delivered, so not remembered: the next repeat is handed on
      expect((await post(r.url, signed(event('evt_c'), { key: 'kc' }))).status).toBe(503);
      expect(handed).toEqual(['evt_c', 'evt_c']);
    } finally {
      await r.close();
    }
  });

  it('a forward that gets no answer in time ends as 502', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((res) => silent.listen(0, '127.0.0.1', res));
    const forwarder = new DeliveryForwarder(`http://127.0.0.1:${(silent.address() as AddressInfo).port}/`, 50);
    const notes: string[] = [];
    try {
      const body = Buffer.from(JSON.stringify(event('evt_t')));
      const o = await forwardDelivery(
        forwarder,
        { line: '', type: 'load_completed', id: 'evt_t', body, headers: {} },
        (t) => notes.push(t),
      );
      expect(o).toEqual({ status: 502, delivered: false });
      expect(notes[0]).toContain('no answer within 50 ms');
    } finally {
      await forwarder.close();
      silent.closeAllConnections();
      silent.close();
    }
  });
});

describe('replays, on a clock the test moves', () => {
  // 2025-01-02 03:00:00 UTC; deliveries come some 14 minutes after the event.
  const T0 = Date.UTC(2025, 0, 2, 3);
  const LATENCY = 14 * MINUTE;

  it('100 replays under new idempotency keys, 10 minutes later and an hour later, reach the --forward-to target once', async () => {
    let now = T0;
    const target = await receiver();
    const forwarder = new DeliveryForwarder(target.url);
    const notes: string[] = [];
    const r = await startReceiver({
      secrets: () => [SECRET],
      host: '127.0.0.1',
      port: 0,
      now: () => now,
      onEvent: (d) => forwardDelivery(forwarder, d, (t) => notes.push(t)),
      onNote: (_kind, text) => notes.push(text),
    });
    const ids = ['evt_r0', 'evt_r1', 'evt_r2', 'evt_r3'];
    const captured = ids.map((id, i) => signed(event(id, 'load_completed', stamp(T0 - LATENCY)), { key: `k-${i}` }));
    const replay = (i: number) => {
      const c = captured[i % captured.length]!;
      // under a new key, or none at all
      const headers = { ...c.headers };
      if (i % 5 === 0) delete headers['X-Service-Idempotency-Key'];
      else headers['X-Service-Idempotency-Key'] = `replay-${i}`;
      return post(r.url, { body: c.body, headers });
    };
    const forwarded = () => target.posts().map((p) => JSON.parse(p.body).id as string);
    try {
      for (const c of captured) expect((await post(r.url, c)).status).toBe(200);
      expect(forwarded()).toEqual(ids);
      for (let i = 0; i < 100; i++) expect((await replay(i)).text).toBe('ok (duplicate)\n');
      now += 10 * MINUTE;
      for (let i = 0; i < captured.length; i++) expect((await replay(i)).text).toBe('ok (duplicate)\n');
      // An hour after the deliveries their timestamps are 74 minutes old: refused, not handed on.
      now = T0 + 60 * MINUTE;
      for (let i = 0; i < captured.length; i++)
        expect(await replay(i)).toEqual({ status: 400, text: 'timestamp outside the replay window\n' });
      expect(forwarded()).toEqual(ids);
      expect(notes).toContain(
        `refused load_completed evt_r0 stamped ${stamp(T0 - LATENCY)}: it is 74 min old, older than the 60 min replay window (400)`,
      );
      // A new event of that hour still gets through.
      expect((await post(r.url, signed(event('evt_new', 'load_completed', stamp(now - LATENCY))))).status).toBe(200);
      expect(forwarded()).toEqual([...ids, 'evt_new']);
    } finally {
      await r.close();
      await forwarder.close();
      await target.close();
    }
  });

  it('a genuine retry is still recognised after junk deliveries: unsigned ones are never remembered, and a full window refuses new events (503) instead of forgetting one', async () => {
    let now = T0;
    const window = new ReplayWindow(() => now, 50);
    const handed: string[] = [];
    const r = await startReceiver({
      secrets: () => [SECRET],
      host: '127.0.0.1',
      port: 0,
      window,
      onEvent: (d) => {
        handed.push(d.id);
        return { status: 200, delivered: true };
      },
      onNote: () => undefined,
    });
    const genuine = signed(event('evt_genuine', 'load_completed', stamp(T0 - LATENCY)), { key: 'genuine-key' });
    try {
      expect((await post(r.url, genuine)).status).toBe(200);
      const junk = await Promise.all(
        Array.from({ length: 300 }, (_, i) => {
          const e = event(`evt_junk_${i}`, 'load_completed', stamp(T0));
          if (i % 3 === 0) return post(r.url, { body: JSON.stringify(e), headers: {} });
          if (i % 3 === 1) return post(r.url, signed(e, { secret: 'c'.repeat(64), key: `junk-${i}` }));
          const s = signed(e, { key: `junk-${i}` });
          return post(r.url, { ...s, body: s.body.replace('evt_junk', 'evt_junc') });
        }),
      );
      expect(new Set(junk.map((j) => j.status))).toEqual(new Set([401]));
      expect(window.size).toBe(1);
      // Validly signed events fill the window: the 50th is the last taken, the rest wait.
      const signedOnes = [];
      for (let i = 0; i < 60; i++) {
        const res = await fetch(`${r.url}/hook`, {
          method: 'POST',
          ...signed(event(`evt_signed_${i}`, 'load_completed', stamp(T0)), { key: `s-${i}` }),
        });
        signedOnes.push({ status: res.status, retryAfter: res.headers.get('retry-after') });
        await res.text();
      }
      expect(signedOnes.slice(0, 49).every((s) => s.status === 200)).toBe(true);
      expect(signedOnes.slice(49).map((s) => s.status)).toEqual(Array(11).fill(503));
      expect(Number(signedOnes[59]!.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(window.size).toBe(50);
      // The service retries the genuine delivery, under its key or another: it is recognised.
      expect((await post(r.url, genuine)).text).toBe('ok (duplicate)\n');
      expect(
        (await post(r.url, { ...genuine, headers: { ...genuine.headers, 'X-Service-Idempotency-Key': 'new' } })).text,
      ).toBe('ok (duplicate)\n');
      expect(handed.filter((id) => id === 'evt_genuine')).toHaveLength(1);
      // Once the window has passed over them, there is room again.
      now = T0 + 62 * MINUTE;
      expect(
        (await post(r.url, signed(event('evt_signed_59', 'load_completed', stamp(now)), { key: 's-59' }))).status,
      ).toBe(200);
      expect(window.size).toBe(1);
    } finally {
      await r.close();
    }
  });
});

describe('webhooks end to end', () => {
  const t = useSandbox({ webhookDelay: 0.05, webhookRetryDelays: [0, 0.1, 0.1, 0.1] });

  it('an event reaches `edp webhooks listen` signed, and is printed once although the sandbox retries it', async () => {
    const port = await freePort();
    const created = await cli(t.sb, [
      'webhooks',
      'create',
      '-w',
      '101',
      '--url',
      `http://127.0.0.1:${port}/edp`,
      '--events',
      'workspace_created',
      '--json',
    ]);
    expect(created.code).toBe(0);
    const { id, secret } = created.json();

    const listener = await startListen([], { port, env: { EDP_WEBHOOK_SECRET: secret } });
    let stopped = false;
    try {
      const verified = await cli(t.sb, ['webhooks', 'verify', String(id), '-w', '101', '--json']);
      expect(verified.code).toBe(0);
      expect(verified.json().status).toBe('active');

      // The listener's first acknowledgement is lost on the way back: the sandbox delivers again.
      await http(t.sb, 'PATCH', '/_sandbox/webhooks', { body: { lost_answers: 1 } });
      const ws = await cli(t.sb, ['workspaces', 'create', '--title', 'Delivered Co', '--json']);
      expect(ws.code).toBe(0);

      // Each look moves the sandbox's clock past the deliveries due (the retry after the lost answer).
      const log = await waitUntil(async () => {
        await settleClock(t.sb);
        const d = (await http(t.sb, 'GET', `/_sandbox/webhook-deliveries?endpoint_id=${id}`)).body as any[];
        return d.some((x) => x.outcome === 'delivered') ? d : undefined;
      });
      expect(log.map((d) => [d.attempt, d.outcome, d.status_code])).toEqual([
        [1, 'failed', 200],
        [2, 'delivered', 200],
      ]);
      expect(log[0].idempotency_key).toBe(log[1].idempotency_key);

      const result = await listener.stop();
      stopped = true;
      expect(result.code).toBe(0);
      const lines = result.stdout.split('\n').filter(Boolean);
      expect(lines).toHaveLength(1);
      const event = JSON.parse(lines[0]!);
      expect(event.type).toBe('workspace_created');
      expect(event.data.workspace_title).toBe('Delivered Co');
      expect(event.data.product_domain_event_aggregate_class).toBe('Workspace');
      expect(result.stderr).toContain('answered a verification challenge');
      expect(result.stderr).toContain('acknowledged a repeated delivery');
      expect(result.stderr).not.toContain('refused');
    } finally {
      if (!stopped) await listener.stop();
    }
  });

  it('after a rotation the listener with the old secret would refuse: the endpoint is unverified and gets nothing', async () => {
    const port = await freePort();
    const { id, secret } = (
      await cli(t.sb, [
        'webhooks',
        'create',
        '-w',
        '102',
        '--url',
        `http://127.0.0.1:${port}/edp`,
        '--events',
        'workspace_created',
        '--json',
      ])
    ).json();
    const listener = await startListen(['--secret', secret], { port });
    try {
      expect((await cli(t.sb, ['webhooks', 'verify', String(id), '-w', '102'])).code).toBe(0);
      const rotated = await cli(t.sb, ['webhooks', 'rotate-secret', String(id), '-w', '102', '--yes', '--json']);
      expect(rotated.json().status).toBe('unverified');
      // A verified endpoint subscribed alike gets the event: once it has, the rotated one would have too.
      const witness = await receiver();
      try {
        const other = (
          await cli(t.sb, [
            'webhooks',
            'create',
            '-w',
            '102',
            '--url',
            witness.url,
            '--events',
            'workspace_created',
            '--json',
          ])
        ).json();
        expect((await cli(t.sb, ['webhooks', 'verify', String(other.id), '-w', '102'])).code).toBe(0);
        await cli(t.sb, ['workspaces', 'create', '--title', 'Not Delivered Co']);
        await settleClock(t.sb);
        await waitUntil(() => (witness.posts().some((p) => p.body.includes('Not Delivered Co')) ? true : undefined));
      } finally {
        await witness.close();
      }
      expect((await http(t.sb, 'GET', `/_sandbox/webhook-deliveries?endpoint_id=${id}`)).body).toEqual([]);
    } finally {
      const result = await listener.stop();
      expect(result.stdout).toBe('');
    }
  });
});
