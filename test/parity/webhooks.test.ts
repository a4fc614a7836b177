import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { localWriteCheck, unobservable, writeCheck } from './checks.js';
import { EVENT_TYPES_BY_SHAPE } from '../../src/contract/events.js';
import {
  allItems,
  call,
  canWrite,
  expectStatus,
  idText,
  parityWait,
  readWorkspace,
  targetIsLocal,
  tokenFor,
} from './target.js';
import { DATASOURCE, WEBHOOK } from './vendor-names.js';

interface Received {
  method: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** The contract spells the maker's word in header names neutrally: match `X-*-Name` by suffix. */
function headerBySuffix(headers: IncomingMessage['headers'], suffix: string): string | undefined {
  const key = Object.keys(headers).find((k) => k.startsWith('x-') && k.endsWith(`-${suffix.toLowerCase()}`));
  const v = key ? headers[key] : undefined;
  return Array.isArray(v) ? v[0] : v;
}

/**
 * A receiver on this machine, for the verification GET and the deliveries: reachable from the
 * target only when the target runs here too. `echo` decides whether it answers the challenge.
 */
function startReceiver(): Promise<{ server: Server; url: string; received: Received[]; echo: { on: boolean } }> {
  const received: Received[] = [];
  const echo = { on: true };
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      received.push({ method: req.method ?? '', headers: req.headers, body });
      if (req.method === 'GET') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end(echo.on ? (headerBySuffix(req.headers, 'challenge') ?? '') : 'not the challenge');
        return;
      }
      res.writeHead(200).end();
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        server,
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/parity-hook`,
        received,
        echo,
      }),
    ),
  );
}

async function waitFor<T>(probe: () => T | undefined, seconds: number): Promise<T | undefined> {
  const end = Date.now() + seconds * 1000;
  for (;;) {
    const v = probe();
    if (v !== undefined || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Contract: Webhook endpoints table, Webhook endpoint status, Events (delivery, rules 1-7, event types). */
describe('webhooks', () => {
  let token: string;
  const created: string[] = [];
  let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined;
  const auth = () => ({ auth: { bearer: token } });

  beforeAll(async () => {
    token = await tokenFor(await readWorkspace());
    if (canWrite && targetIsLocal) receiver = await startReceiver();
  });

  afterAll(async () => {
    for (const id of created) await call('DELETE', `/api/v3/webhook_endpoints/${id}/`, auth());
    await new Promise((r) => (receiver ? receiver.server.close(r) : r(undefined)));
  });

  const create = async (url: string, eventTypes: string[]) => {
    const res = await call('POST', '/api/v3/webhook_endpoints/', {
      ...auth(),
      json: { [WEBHOOK.url]: url, event_types: eventTypes },
    });
    if (res.body?.id !== undefined) created.push(idText(res.body.id));
    return res;
  };

  test("the event types list holds exactly the contract's 90 subscribable types, as event_name (webhookEventTypes.list; Events)", async () => {
    const items = await allItems('/api/v3/webhook_event_types/', { bearer: token });
    const names = items.map((i) => i.event_name).sort();
    expect(names).toEqual(Object.values(EVENT_TYPES_BY_SHAPE).flat().sort());
  });

  test('the event types list without a token answers 401 (webhookEventTypes.list; Authentication)', async () => {
    expectStatus(await call('GET', '/api/v3/webhook_event_types/'), 401);
  });

  test('the endpoints list answers 200 for the workspace (webhooks.list)', async () => {
    const res = await call('GET', '/api/v3/webhook_endpoints/', auth());
    expectStatus(res, 200);
  });

  test('an endpoint that does not exist answers 404 (webhooks.get; Status meaning)', async () => {
    expectStatus(await call('GET', '/api/v3/webhook_endpoints/2147483646/', auth()), 404);
    expectStatus(await call('POST', '/api/v3/webhook_endpoints/2147483646/regenerate_secret/', auth()), 404);
  });

  writeCheck(
    'create answers the endpoint as unverified with id and secret (webhooks.create; Webhook endpoint status)',
    async () => {
      const res = await create('https://parity.invalid/hook', ['load_completed', 'recipe_activated']);
      expectStatus(res, 200, 201);
      expect(res.header('x-im-trace-id'), 'x-im-trace-id on the create answer (Errors)').toBeTruthy();
      expect(res.body.status).toBe('unverified');
      expect(typeof res.body.secret).toBe('string');
      expect(res.body.secret.length).toBeGreaterThan(0);
      expect([...res.body.event_types].sort()).toEqual(['load_completed', 'recipe_activated']);
    },
  );

  writeCheck(
    'the secret is returned at creation and on rotation only, not on read (webhooks.create; webhooks.regenerateSecret; webhooks.get)',
    async () => {
      const res = await create('https://parity.invalid/hook-read', ['load_completed']);
      const read = await call('GET', `/api/v3/webhook_endpoints/${idText(res.body.id)}/`, auth());
      expectStatus(read, 200);
      expect(read.body).not.toHaveProperty('secret');
    },
  );

  writeCheck('PATCH changes event_types (webhooks.update)', async () => {
    const res = await create('https://parity.invalid/hook-patch', ['load_completed']);
    const patched = await call('PATCH', `/api/v3/webhook_endpoints/${idText(res.body.id)}/`, {
      ...auth(),
      json: { event_types: ['load_started'] },
    });
    expectStatus(patched, 200);
    expect(patched.body.event_types).toEqual(['load_started']);
  });

  writeCheck('regenerate_secret answers 200 with a new secret, the endpoint unverified (Events rule 7)', async () => {
    const res = await create('https://parity.invalid/hook-rotate', ['load_completed']);
    const rotated = await call('POST', `/api/v3/webhook_endpoints/${idText(res.body.id)}/regenerate_secret/`, auth());
    expectStatus(rotated, 200);
    expect(typeof rotated.body.secret).toBe('string');
    expect(rotated.body.secret).not.toBe(res.body.secret);
    expect((await call('GET', `/api/v3/webhook_endpoints/${idText(res.body.id)}/`, auth())).body.status).toBe(
      'unverified',
    );
  });

  writeCheck('DELETE removes the endpoint: a read then answers 404 (webhooks.delete)', async () => {
    const res = await create('https://parity.invalid/hook-delete', ['load_completed']);
    const id = idText(res.body.id);
    const deleted = await call('DELETE', `/api/v3/webhook_endpoints/${id}/`, auth());
    expectStatus(deleted, 200, 204);
    expect(deleted.header('x-im-trace-id'), 'x-im-trace-id on the delete answer (Errors)').toBeTruthy();
    expectStatus(await call('GET', `/api/v3/webhook_endpoints/${id}/`, auth()), 404);
  });

  localWriteCheck(
    'verify sends a GET with the verify token and challenge; echoing the challenge makes the endpoint active (Events rule 6)',
    async () => {
      const res = await create(receiver!.url, ['load_completed']);
      const id = idText(res.body.id);
      const before = receiver!.received.length;
      await call('POST', `/api/v3/webhook_endpoints/${id}/verify/`, auth());
      const get = receiver!.received.slice(before).find((r) => r.method === 'GET');
      expect(get, 'the receiver got no verification GET').toBeDefined();
      expect(headerBySuffix(get!.headers, 'verify-token')).toBeTruthy();
      expect(headerBySuffix(get!.headers, 'challenge')).toBeTruthy();
      expect((await call('GET', `/api/v3/webhook_endpoints/${id}/`, auth())).body.status).toBe('active');
      // Rotating the secret of an active endpoint makes it unverified again (Webhook endpoint status).
      await call('POST', `/api/v3/webhook_endpoints/${id}/regenerate_secret/`, auth());
      expect((await call('GET', `/api/v3/webhook_endpoints/${id}/`, auth())).body.status).toBe('unverified');
    },
  );

  localWriteCheck(
    'a receiver that does not echo the challenge leaves the endpoint unverified (Events rule 6)',
    async () => {
      const res = await create(receiver!.url, ['load_completed']);
      receiver!.echo.on = false;
      try {
        await call('POST', `/api/v3/webhook_endpoints/${idText(res.body.id)}/verify/`, auth());
      } finally {
        receiver!.echo.on = true;
      }
      expect((await call('GET', `/api/v3/webhook_endpoints/${idText(res.body.id)}/`, auth())).body.status).toBe(
        'unverified',
      );
    },
  );

  localWriteCheck(
    'an active endpoint receives a signed POST {id, type, timestamp, data} with string data values (Events: Delivery, rules 1 and 4)',
    async (ctx) => {
      // Changing an account's extraction flag is the operation at hand whose event type is an active one.
      let connection: string | undefined;
      let account: any;
      const sources = await allItems('/api/v3/datasources', { bearer: token });
      for (const ds of [...sources].reverse()) {
        for (const c of await allItems(`/api/v3/datasources/${encodeURIComponent(ds[DATASOURCE.name])}/connections`, {
          bearer: token,
        })) {
          account = (await allItems(`/api/v3/connections/${idText(c.id)}/accounts`, { bearer: token })).find(
            (a) => a.is_active,
          );
          if (account) {
            connection = idText(c.id);
            break;
          }
        }
        if (account) break;
      }
      if (!account) return ctx.skip('no active account in the scratch workspace');
      const made = await create(receiver!.url, ['enabled_for_embedded_extraction_changed']);
      const id = idText(made.body.id);
      await call('POST', `/api/v3/webhook_endpoints/${id}/verify/`, auth());
      expect((await call('GET', `/api/v3/webhook_endpoints/${id}/`, auth())).body.status).toBe('active');
      const before = receiver!.received.length;
      const path = `/api/v3/connections/${connection}/accounts/${idText(account.id)}`;
      const was = account.enabled_for_embedded_extraction as boolean;
      try {
        expectStatus(await call('PATCH', path, { ...auth(), json: { enabled_for_embedded_extraction: !was } }), 200);
        const post = await waitFor(
          () => receiver!.received.slice(before).find((r) => r.method === 'POST'),
          parityWait(20),
        );
        if (!post) return ctx.skip('no delivery within 20 s (Events rule 2: typical latency is minutes)');
        const event = JSON.parse(post.body);
        expect(Object.keys(event).sort()).toEqual(['data', 'id', 'timestamp', 'type']);
        expect(event.type).toBe('enabled_for_embedded_extraction_changed');
        expect(event.timestamp).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}$/);
        for (const [key, value] of Object.entries(event.data)) expect(typeof value, `data.${key}`).toBe('string');
        for (const key of [
          'datasource_account_id',
          'datasource_remote_account_id',
          'datasource_connection_id',
          'product_domain_event_class',
        ])
          expect(event.data).toHaveProperty(key);
        const signature = headerBySuffix(post.headers, 'signature') ?? '';
        const mac = (encoding: 'hex' | 'base64') =>
          createHmac('sha256', made.body.secret).update(post.body).digest(encoding);
        expect([mac('hex'), mac('base64')]).toContain(signature);
        expect(headerBySuffix(post.headers, 'idempotency-key')).toBeTruthy();
      } finally {
        await call('PATCH', path, { ...auth(), json: { enabled_for_embedded_extraction: was } });
      }
    },
  );

  if (!targetIsLocal) {
    unobservable(
      'deliveries to a local receiver (Events: Delivery)',
      'the target cannot reach a receiver on this machine',
    );
  }
});
