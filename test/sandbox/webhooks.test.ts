import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { advanceClock, http, sandbox, settleClock, tokenFor, waitUntil } from '../helpers.js';
import { receiver } from '../fixtures/webhooks.js';

let sb: Sandbox;
let t101: string;
let t102: string;
let t103: string;
beforeAll(async () => {
  sb = await sandbox({ webhookDelay: 0.02, webhookRetryDelays: [0, 0.05, 0.05, 0.05] });
  t101 = await tokenFor(sb, 101);
  t102 = await tokenFor(sb, 102);
  t103 = await tokenFor(sb, 103);
});
afterAll(() => sb.close());

/**
 * Waits for `check` while moving the clock past the deliveries and retries due on each look: a
 * delivery is an HTTP request to a receiver, whose answer comes in its own time.
 */
function delivered<T>(check: () => T | Promise<T>) {
  return waitUntil(async () => {
    await settleClock(sb);
    return check();
  });
}

const SHARED_KEYS = [
  'product_domain_event_inserted_at',
  'product_domain_event_aggregate_class',
  'product_domain_event_class',
  'product_domain_event_usecase',
  'product_domain_event',
];

async function createEndpoint(token: string, url: string, eventTypes: string[]) {
  const res = await http(sb, 'POST', '/api/v3/webhook_endpoints/', { token, body: { url, event_types: eventTypes } });
  expect(res.status).toBe(201);
  return res.body as { id: number; secret: string; status: string };
}

async function activeEndpoint(token: string, url: string, eventTypes: string[]) {
  const ep = await createEndpoint(token, url, eventTypes);
  const verified = await http(sb, 'POST', `/api/v3/webhook_endpoints/${ep.id}/verify/`, { token });
  expect(verified.status).toBe(200);
  return ep;
}

async function deliveries(endpointId: number): Promise<any[]> {
  return (await http(sb, 'GET', `/_sandbox/webhook-deliveries?endpoint_id=${endpointId}`)).body;
}

describe('webhook event types', () => {
  it('lists the 90 subscribable types by event_name', async () => {
    const res = await http(sb, 'GET', '/api/v3/webhook_event_types/', { token: t101 });
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(90);
    const names = res.body.results.map((r: any) => r.event_name);
    expect(new Set(names).size).toBe(90);
    expect(names).toContain('workspace_created');
    expect(names).toContain('gbq_by_service_for_sandbox_created');
    expect(Object.keys(res.body.results[0])).toEqual(['event_name']);
  });

  it('needs a token (401)', async () => {
    const res = await http(sb, 'GET', '/api/v3/webhook_event_types/');
    expect(res.status).toBe(401);
    expect(res.body.detail).toBeTruthy();
  });
});

describe('webhook endpoints', () => {
  it('creates an unverified endpoint with id and secret, shown once', async () => {
    const ep = await createEndpoint(t101, 'https://hooks.example.com/a', ['workspace_created', 'load_completed']);
    expect(ep.status).toBe('unverified');
    expect(ep.secret).toMatch(/^[0-9a-f]{64}$/);
    const got = await http(sb, 'GET', `/api/v3/webhook_endpoints/${ep.id}/`, { token: t101 });
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({
      id: ep.id,
      url: 'https://hooks.example.com/a',
      event_types: ['workspace_created', 'load_completed'],
      status: 'unverified',
    });
    expect(got.body.secret).toBeUndefined();
    const list = await http(sb, 'GET', '/api/v3/webhook_endpoints/', { token: t101 });
    expect(list.body.results.map((e: any) => e.id)).toContain(ep.id);
    expect(list.body.results.every((e: any) => e.secret === undefined)).toBe(true);
  });

  it('refuses unknown event types, naming each position (400)', async () => {
    const before = (await http(sb, 'GET', '/api/v3/webhook_endpoints/', { token: t101 })).body.count;
    const res = await http(sb, 'POST', '/api/v3/webhook_endpoints/', {
      token: t101,
      body: { url: 'https://hooks.example.com/b', event_types: ['load_completed', 'load_exploded'] },
    });
    expect(res.status).toBe(400);
    expect(res.body.detail).toBeTruthy();
    expect(res.body['event_types[1]'][0]).toContain('load_exploded');
    expect((await http(sb, 'GET', '/api/v3/webhook_endpoints/', { token: t101 })).body.count).toBe(before);
  });

  it('refuses a missing url, a non-http url and an empty subscription (400)', async () => {
    for (const body of [
      { event_types: ['load_completed'] },
      { url: 'ftp://x.example.com', event_types: ['load_completed'] },
      { url: 'https://x.example.com', event_types: [] },
    ]) {
      const res = await http(sb, 'POST', '/api/v3/webhook_endpoints/', { token: t101, body });
      expect(res.status).toBe(400);
    }
  });

  it('needs a token for every operation (401)', async () => {
    expect((await http(sb, 'GET', '/api/v3/webhook_endpoints/')).status).toBe(401);
    expect(
      (
        await http(sb, 'POST', '/api/v3/webhook_endpoints/', {
          body: { url: 'https://x.example.com', event_types: ['load_completed'] },
        })
      ).status,
    ).toBe(401);
    expect((await http(sb, 'POST', '/api/v3/webhook_endpoints/1/regenerate_secret/')).status).toBe(401);
  });

  it('changes event_types with PATCH and refuses other keys', async () => {
    const ep = await createEndpoint(t101, 'https://hooks.example.com/c', ['load_completed']);
    const res = await http(sb, 'PATCH', `/api/v3/webhook_endpoints/${ep.id}/`, {
      token: t101,
      body: { event_types: ['load_started', 'load_completed'] },
    });
    expect(res.status).toBe(200);
    expect(res.body.event_types).toEqual(['load_started', 'load_completed']);
    const url = await http(sb, 'PATCH', `/api/v3/webhook_endpoints/${ep.id}/`, {
      token: t101,
      body: { event_types: ['load_started'], url: 'https://evil.example.com' },
    });
    expect(url.status).toBe(400);
    const bad = await http(sb, 'PATCH', `/api/v3/webhook_endpoints/${ep.id}/`, {
      token: t101,
      body: { event_types: ['nope'] },
    });
    expect(bad.status).toBe(400);
    expect((await http(sb, 'GET', `/api/v3/webhook_endpoints/${ep.id}/`, { token: t101 })).body.event_types).toEqual([
      'load_started',
      'load_completed',
    ]);
  });

  it("answers 404 for a missing endpoint and for another workspace's", async () => {
    const ep = await createEndpoint(t101, 'https://hooks.example.com/d', ['load_completed']);
    for (const [method, suffix] of [
      ['GET', ''],
      ['PATCH', ''],
      ['DELETE', ''],
      ['POST', 'verify/'],
      ['POST', 'regenerate_secret/'],
    ] as const) {
      const body = method === 'PATCH' ? { event_types: ['load_completed'] } : undefined;
      expect((await http(sb, method, `/api/v3/webhook_endpoints/999/${suffix}`, { token: t101, body })).status).toBe(
        404,
      );
      expect(
        (await http(sb, method, `/api/v3/webhook_endpoints/${ep.id}/${suffix}`, { token: t102, body })).status,
      ).toBe(404);
    }
  });

  it('deletes an endpoint (204, then 404)', async () => {
    const ep = await createEndpoint(t101, 'https://hooks.example.com/e', ['load_completed']);
    expect((await http(sb, 'DELETE', `/api/v3/webhook_endpoints/${ep.id}/`, { token: t101 })).status).toBe(204);
    expect((await http(sb, 'GET', `/api/v3/webhook_endpoints/${ep.id}/`, { token: t101 })).status).toBe(404);
  });

  it('registers only the slash form: the slashless path answers 301', async () => {
    const res = await http(sb, 'GET', '/api/v3/webhook_endpoints', { token: t101 });
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe('/api/v3/webhook_endpoints/');
    expect((await http(sb, 'POST', '/api/v3/webhook_endpoints/1/verify', { token: t101 })).status).toBe(301);
  });
});

describe('verification', () => {
  it('sends the verify token and challenge; a 200 with the challenge makes the endpoint active', async () => {
    const r = await receiver();
    try {
      const ep = await createEndpoint(t101, r.url, ['load_completed']);
      const res = await http(sb, 'POST', `/api/v3/webhook_endpoints/${ep.id}/verify/`, { token: t101 });
      expect(res.status).toBe(200);
      expect(res.body.status).toBe('active');
      const get = r.received[0]!;
      expect(get.method).toBe('GET');
      expect(get.headers['x-service-verify-token']).toMatch(/.+/);
      expect(get.headers['x-service-challenge']).toMatch(/.+/);
      expect((await http(sb, 'GET', `/api/v3/webhook_endpoints/${ep.id}/`, { token: t101 })).body.status).toBe(
        'active',
      );
    } finally {
      await r.close();
    }
  });

  it('stays unverified when the receiver answers another body, another status, or nothing (400)', async () => {
    const wrongBody = await receiver(() => ({ status: 200, body: 'hello' }));
    const wrongStatus = await receiver((req) => ({ status: 201, body: String(req.headers['x-service-challenge']) }));
    try {
      for (const [url, why] of [
        [wrongBody.url, 'not the challenge'],
        [wrongStatus.url, 'answered 201'],
        ['http://127.0.0.1:1/hook', 'could not be reached'],
      ] as const) {
        const ep = await createEndpoint(t101, url, ['load_completed']);
        const res = await http(sb, 'POST', `/api/v3/webhook_endpoints/${ep.id}/verify/`, { token: t101 });
        expect(res.status).toBe(400);
        expect(res.body.detail).toContain(why);
        expect((await http(sb, 'GET', `/api/v3/webhook_endpoints/${ep.id}/`, { token: t101 })).body.status).toBe(
          'unverified',
        );
      }
    } finally {
      await wrongBody.close();
      await wrongStatus.close();
    }
  });
});

describe('secret rotation', () => {
  it('returns a new secret and resets an active endpoint to unverified', async () => {
    const r = await receiver();
    try {
      const ep = await activeEndpoint(t101, r.url, ['load_completed']);
      const res = await http(sb, 'POST', `/api/v3/webhook_endpoints/${ep.id}/regenerate_secret/`, { token: t101 });
      expect(res.status).toBe(200);
      expect(res.body.secret).toMatch(/^[0-9a-f]{64}$/);
      expect(res.body.secret).not.toBe(ep.secret);
      expect(res.body.status).toBe('unverified');
      // unverified stays unverified
      const again = await http(sb, 'POST', `/api/v3/webhook_endpoints/${ep.id}/regenerate_secret/`, { token: t101 });
      expect(again.body.status).toBe('unverified');
    } finally {
      await r.close();
    }
  });

  it('stops pending deliveries at once: the old secret never signs again', async () => {
    const r = await receiver((req) => (req.method === 'GET' ? undefined : { status: 500 }));
    try {
      const ep = await activeEndpoint(t102, r.url, ['connection_deleted']);
      await http(sb, 'PATCH', '/_sandbox/webhooks', { body: { retry_delays: [0.3, 0.3, 0.3, 0.3] } });
      sb.store.emit('connection_deleted', 102, 'Connection', {
        datasource_connection_id: '1',
        datasource_name: 'google_ads',
        datasource_connection_title: 'x',
      });
      await advanceClock(sb, 0.02);
      // The first attempt failed and its retry waits on the clock.
      await waitUntil(async () => ((await deliveries(ep.id)).length === 1 ? true : undefined));
      expect(r.posts()).toHaveLength(1);
      await http(sb, 'POST', `/api/v3/webhook_endpoints/${ep.id}/regenerate_secret/`, { token: t102 });
      const log = await delivered(async () => {
        const d = await deliveries(ep.id);
        return d.length === 2 ? d : undefined;
      });
      expect(log.map((d) => d.outcome)).toEqual(['failed', 'abandoned']);
      expect(r.posts()).toHaveLength(1);
    } finally {
      await http(sb, 'PATCH', '/_sandbox/webhooks', { body: { retry_delays: [0, 0.05, 0.05, 0.05] } });
      await r.close();
    }
  });
});

describe('deliveries', () => {
  it('POSTs {id, type, timestamp, data} signed with the endpoint secret, to active subscribers only', async () => {
    const subscribed = await receiver();
    const unverified = await receiver();
    const other = await receiver();
    try {
      const ep = await activeEndpoint(t101, subscribed.url, ['workspace_created']);
      await createEndpoint(t101, unverified.url, ['workspace_created']);
      await activeEndpoint(t101, other.url, ['load_completed']);
      const created = await http(sb, 'POST', '/api/v3/workspaces', {
        basic: true,
        body: { title: 'Hooked Workspace' },
      });
      expect(created.status).toBe(201);
      const post = await delivered(() => subscribed.posts()[0]);
      const event = JSON.parse(post.body);
      expect(Object.keys(event)).toEqual(['id', 'type', 'timestamp', 'data']);
      expect(event.type).toBe('workspace_created');
      expect(event.timestamp).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}$/);
      expect(Object.keys(event.data).sort()).toEqual([...SHARED_KEYS, 'agency_title', 'workspace_title'].sort());
      expect(event.data.workspace_title).toBe('Hooked Workspace');
      expect(event.data.product_domain_event).toBe('workspace_created');
      expect(event.data.product_domain_event_aggregate_class).toBe('Workspace');
      expect(Object.values(event.data).every((v) => typeof v === 'string')).toBe(true);
      expect(post.headers['content-type']).toBe('application/json');
      expect(post.headers['x-service-signature']).toBe(createHmac('sha256', ep.secret).update(post.body).digest('hex'));
      expect(post.headers['x-service-idempotency-key']).toMatch(/.+/);
      // Deliveries go out in the order they were scheduled: once an event emitted after this
      // one has reached `other`, anything this one would have sent to it or to the unverified
      // endpoint has gone out too.
      sb.store.emit('load_completed', 101, 'Load', { load_id: '5' });
      await delivered(() => other.posts()[0]);
      expect(unverified.posts()).toHaveLength(0);
      expect(other.posts().map((p) => JSON.parse(p.body).type)).toEqual(['load_completed']);
      expect(subscribed.posts()).toHaveLength(1);
    } finally {
      await Promise.all([subscribed.close(), unverified.close(), other.close()]);
    }
  });

  it("delivers a workspace's events only to that workspace's endpoints", async () => {
    const mine = await receiver();
    const theirs = await receiver();
    try {
      await activeEndpoint(t101, mine.url, ['load_completed']);
      await activeEndpoint(t102, theirs.url, ['load_completed']);
      sb.store.emit('load_completed', 101, 'Load', { load_id: '5' });
      await delivered(() => mine.posts()[0]);
      // A later event of workspace 102 reaches `theirs` after anything the first one sent it.
      sb.store.emit('load_completed', 102, 'Load', { load_id: '6' });
      await delivered(() => theirs.posts()[0]);
      expect(theirs.posts().map((p) => JSON.parse(p.body).data.load_id)).toEqual(['6']);
    } finally {
      await Promise.all([mine.close(), theirs.close()]);
    }
  });

  it('shapes data by aggregate class: every documented key present, Recipe without shared keys', async () => {
    const r = await receiver();
    try {
      await activeEndpoint(t103, r.url, ['account_enabled', 'recipe_activated', 'invite_accepted']);
      sb.store.emit('account_enabled', 103, 'Account', {
        datasource_account_id: '20001',
        datasource_remote_account_id: '123-456-7801',
      });
      sb.store.emit('recipe_activated', 103, 'Recipe', { recipe_event_view_name: 'paid_media' });
      sb.store.emit('invite_accepted', 103, 'AgencyInvite', {
        invitee_user_email: 'new@example.com',
        agency_invite_accepted_date: null,
      });
      await delivered(() => (r.posts().length === 3 ? true : undefined));
      const byType = Object.fromEntries(r.posts().map((p) => [JSON.parse(p.body).type, JSON.parse(p.body).data]));
      const account = byType.account_enabled;
      expect(Object.keys(account).sort()).toEqual(
        [
          ...SHARED_KEYS,
          'datasource_account_id',
          'datasource_remote_account_id',
          'datasource_remote_account_name',
          'datasource_connection_id',
          'datasource_connection_title',
          'agency_title',
          'workspace_title',
        ].sort(),
      );
      expect(account.datasource_remote_account_name).toBe('');
      expect(account.workspace_title).toBe('Initech Apps');
      const recipe = byType.recipe_activated;
      expect(Object.keys(recipe).some((k) => k.startsWith('product_domain_event'))).toBe(false);
      expect(recipe).toMatchObject({
        recipe_event_view_name: 'paid_media',
        recipe_event_error_message: '',
        is_action_log: '',
      });
      expect(Object.keys(recipe)).toHaveLength(10);
      expect(byType.invite_accepted.agency_invite_accepted_date).toBeNull();
      expect(byType.invite_accepted.invitee_user_email).toBe('new@example.com');
    } finally {
      await r.close();
    }
  });

  it('never delivers silent event types', async () => {
    const r = await receiver();
    try {
      const ep = await activeEndpoint(t102, r.url, ['connection_created', 'connection_invalidated']);
      sb.store.emit('connection_created', 102, 'Connection', {});
      sb.store.emit('connection_invalidated', 102, 'Connection', {});
      // The silent event was emitted first, so its delivery would have gone out first.
      await delivered(async () => ((await deliveries(ep.id)).length > 0 ? true : undefined));
      expect(r.posts().map((p) => JSON.parse(p.body).type)).toEqual(['connection_invalidated']);
      expect((await deliveries(ep.id)).map((d) => d.event_type)).toEqual(['connection_invalidated']);
    } finally {
      await r.close();
    }
  });

  it('retries a failed delivery with the same body, signature and idempotency key', async () => {
    const r = await receiver((req, i) =>
      req.method === 'GET' ? undefined : i <= 1 ? { status: 503 } : { status: 204 },
    );
    try {
      const ep = await activeEndpoint(t102, r.url, ['extraction_completed']);
      sb.store.emit('extraction_completed', 102, 'Extraction', { order_id: '77' });
      const log = await delivered(async () => {
        const d = await deliveries(ep.id);
        return d.some((x) => x.outcome === 'delivered') ? d : undefined;
      });
      expect(log.map((d) => [d.attempt, d.outcome, d.status_code])).toEqual([
        [1, 'failed', 503],
        [2, 'delivered', 204],
      ]);
      const [first, second] = r.posts();
      expect(second!.body).toBe(first!.body);
      expect(second!.headers['x-service-signature']).toBe(first!.headers['x-service-signature']);
      expect(second!.headers['x-service-idempotency-key']).toBe(first!.headers['x-service-idempotency-key']);
    } finally {
      await r.close();
    }
  });

  it('gives up after the four retries of the schedule', async () => {
    const r = await receiver((req) => (req.method === 'GET' ? undefined : { status: 500 }));
    try {
      const ep = await activeEndpoint(t102, r.url, ['load_started']);
      sb.store.emit('load_started', 102, 'Load', {});
      const log = await delivered(async () => {
        const d = await deliveries(ep.id);
        return d.some((x) => !x.will_retry) ? d : undefined;
      });
      expect(log.map((d) => d.attempt)).toEqual([1, 2, 3, 4, 5]);
      // Each retry after the schedule's next delay, in order (this sandbox's delays: 0, 0.05, 0.05, 0.05).
      expect(log.map((d) => d.retry_in_s)).toEqual([0, 0.05, 0.05, 0.05, null]);
      expect(log.every((d) => d.outcome === 'failed')).toBe(true);
      expect(new Set(log.map((d) => d.idempotency_key)).size).toBe(1);
    } finally {
      await r.close();
    }
  });

  it('lost_answers knob: a 2xx answer treated as lost is delivered again', async () => {
    const r = await receiver();
    try {
      const ep = await activeEndpoint(t102, r.url, ['load_created']);
      expect((await http(sb, 'PATCH', '/_sandbox/webhooks', { body: { lost_answers: 1 } })).body.lost_answers).toBe(1);
      sb.store.emit('load_created', 102, 'Load', {});
      await delivered(() => (r.posts().length === 2 ? true : undefined));
      const log = await deliveries(ep.id);
      expect(log.map((d) => d.outcome)).toEqual(['failed', 'delivered']);
      expect(log[0].status_code).toBe(200);
    } finally {
      await r.close();
    }
  });

  it('refuses bad knob values', async () => {
    expect((await http(sb, 'PATCH', '/_sandbox/webhooks', { body: { retry_delays: [-1] } })).status).toBe(400);
    expect((await http(sb, 'PATCH', '/_sandbox/webhooks', { body: { lost_answers: 'x' } })).status).toBe(400);
  });
});

describe('as the vendor documents deliveries', () => {
  it('retries up to four times, after 0, 2, 5 and 10 s by default', async () => {
    const fresh = await sandbox({ webhookDelay: 0.02 });
    const r = await receiver((req) => (req.method === 'GET' ? undefined : { status: 500 }));
    try {
      const knobs = await http(fresh, 'PATCH', '/_sandbox/webhooks', { body: {} });
      expect(knobs.body.retry_delays).toEqual([0, 2, 5, 10]);
      const token = await tokenFor(fresh, 101);
      const ep = (
        await http(fresh, 'POST', '/api/v3/webhook_endpoints/', {
          token,
          body: { url: r.url, event_types: ['load_started'] },
        })
      ).body;
      expect((await http(fresh, 'POST', `/api/v3/webhook_endpoints/${ep.id}/verify/`, { token })).status).toBe(200);
      fresh.store.emit('load_started', 101, 'Load', {});
      const attempts = (n: number) =>
        waitUntil(async () => {
          const d = (await http(fresh, 'GET', `/_sandbox/webhook-deliveries?endpoint_id=${ep.id}`)).body as any[];
          return d.length >= n ? d : undefined;
        });
      // The first two attempts are 0 s apart; the second schedules the third 2 s later.
      await advanceClock(fresh, 0.02);
      await attempts(1);
      await advanceClock(fresh, 0);
      await attempts(2);
      await advanceClock(fresh, 1.999);
      const log = await attempts(2);
      expect(log.map((d) => [d.attempt, d.retry_in_s])).toEqual([
        [1, 0],
        [2, 2],
      ]);
      await advanceClock(fresh, 0.001);
      expect((await attempts(3)).map((d) => [d.attempt, d.retry_in_s])[2]).toEqual([3, 5]);
    } finally {
      await r.close();
      await fresh.close();
    }
  });

  it('the verification GET carries the endpoint secret as its verify token', async () => {
    const r = await receiver();
    try {
      const ep = await createEndpoint(t101, r.url, ['load_started']);
      expect((await http(sb, 'POST', `/api/v3/webhook_endpoints/${ep.id}/verify/`, { token: t101 })).status).toBe(200);
      const get = r.received.find((x) => x.method === 'GET')!;
      expect(get.headers['x-service-verify-token']).toBe(ep.secret);
      expect(get.headers['x-service-challenge']).toBeTruthy();
    } finally {
      await r.close();
    }
  });

  it('timestamps carry three fractional digits (the contract), six on request', async () => {
    const r = await receiver();
    try {
      const ep = await activeEndpoint(t103, r.url, ['load_completed']);
      sb.store.emit('load_completed', 103, 'Load', {});
      await delivered(() => (r.posts().length >= 1 ? true : undefined));
      const three = JSON.parse(r.posts()[0]!.body);
      expect(three.timestamp).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}$/);
      expect(
        (await http(sb, 'PATCH', '/_sandbox/webhooks', { body: { timestamp_digits: 6 } })).body.timestamp_digits,
      ).toBe(6);
      try {
        sb.store.emit('load_completed', 103, 'Load', {});
        await delivered(() => (r.posts().length >= 2 ? true : undefined));
        const six = JSON.parse(r.posts()[1]!.body);
        expect(six.timestamp).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}$/);
        expect(six.data.product_domain_event_inserted_at).toMatch(/\.\d{6}$/);
      } finally {
        await http(sb, 'PATCH', '/_sandbox/webhooks', { body: { timestamp_digits: 3 } });
      }
      expect((await http(sb, 'PATCH', '/_sandbox/webhooks', { body: { timestamp_digits: 4 } })).status).toBe(400);
      expect(ep.id).toBeGreaterThan(0);
    } finally {
      await r.close();
    }
  });
});
