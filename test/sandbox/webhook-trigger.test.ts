import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { EVENT_TYPES, EVENT_TYPES_BY_SHAPE, SHAPE_KEYS } from '../../src/sandbox/routes/webhooks/catalog.js';
import { http, sandbox, settleClock, tokenFor, waitUntil } from '../helpers.js';
import { freePort, receiver, startListen } from '../fixtures/webhooks.js';

let sb: Sandbox;
/** Each test has a workspace of its own, so that no test sees another's endpoints. */
const tokens: Record<number, string> = {};
beforeAll(async () => {
  sb = await sandbox({ webhookDelay: 0.02, webhookRetryDelays: [0, 0.05, 0.05, 0.05] });
  for (const ws of [101, 102, 103]) tokens[ws] = await tokenFor(sb, ws);
});
afterAll(() => sb.close());

const SHARED_KEYS = [
  'product_domain_event_inserted_at',
  'product_domain_event_aggregate_class',
  'product_domain_event_class',
  'product_domain_event_usecase',
  'product_domain_event',
];
/** The contract's Events rule 4: every value a string, null only where a shape allows it. */
const NULLABLE = new Set(['agency_invite_accepted_date']);

/** A JSON Schema of a shape's `data`, from the contract's facts: exactly its keys, each a string. */
function shapeSchema(shape: string): object {
  const keys = [...(shape === 'Recipe' ? [] : SHARED_KEYS), ...SHAPE_KEYS[shape]!];
  return {
    type: 'object',
    required: keys,
    additionalProperties: false,
    properties: Object.fromEntries(
      keys.map((k) => [k, NULLABLE.has(k) ? { type: ['string', 'null'] } : { type: 'string' }]),
    ),
  };
}

const ajv = new Ajv2020({ allErrors: true, strict: true });
const validators = Object.fromEntries(
  Object.keys(EVENT_TYPES_BY_SHAPE).map((shape) => [shape, ajv.compile(shapeSchema(shape))]),
);
const shapeOf = (type: string) => Object.entries(EVENT_TYPES_BY_SHAPE).find(([, ts]) => ts.includes(type))![0];

async function createEndpoint(ws: number, url: string, eventTypes: readonly string[]) {
  const ep = await http(sb, 'POST', '/api/v3/webhook_endpoints/', {
    token: tokens[ws],
    body: { url, event_types: eventTypes },
  });
  expect(ep.status).toBe(201);
  return ep.body as { id: number; secret: string };
}

async function verify(ws: number, id: number) {
  const verified = await http(sb, 'POST', `/api/v3/webhook_endpoints/${id}/verify/`, { token: tokens[ws] });
  expect(verified.status).toBe(200);
}

async function activeEndpoint(ws: number, url: string, eventTypes: readonly string[]) {
  const ep = await createEndpoint(ws, url, eventTypes);
  await verify(ws, ep.id);
  return ep;
}

const trigger = (body: unknown) => http(sb, 'POST', '/_sandbox/events', { body });

describe('POST /_sandbox/events', () => {
  it('delivers every event type of the contract with a payload of its shape, signed, to edp webhooks listen', async () => {
    const port = await freePort();
    const endpoint = await createEndpoint(101, `http://127.0.0.1:${port}/edp`, EVENT_TYPES);
    const listener = await startListen(['--secret', endpoint.secret], { port });
    let stopped = false;
    try {
      await verify(101, endpoint.id);
      const answers = [];
      for (const type of EVENT_TYPES) {
        const res = await trigger({ event_type: type, workspace_id: 101 });
        expect(res.status, type).toBe(201);
        expect(res.body.endpoints).toEqual([{ id: endpoint.id, url: `http://127.0.0.1:${port}/edp` }]);
        answers.push(res.body.event);
      }
      await waitUntil(async () => {
        await settleClock(sb);
        const log = (await http(sb, 'GET', `/_sandbox/webhook-deliveries?endpoint_id=${endpoint.id}`)).body as any[];
        return log.filter((d) => d.outcome === 'delivered').length === EVENT_TYPES.length ? true : undefined;
      });
      const result = await listener.stop();
      stopped = true;
      expect(result.code).toBe(0);
      expect(result.stderr).not.toContain('refused');
      const received = result.stdout
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line));
      expect(received.map((e) => e.type).sort()).toEqual([...EVENT_TYPES].sort());
      for (const event of received) {
        const shape = shapeOf(event.type);
        const validate = validators[shape]!;
        expect(validate(event.data), `${event.type}: ${ajv.errorsText(validate.errors)}`).toBe(true);
        expect(event.timestamp).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}$/);
        if (shape !== 'Recipe') {
          expect(event.data.product_domain_event).toBe(event.type);
          expect(event.data.product_domain_event_aggregate_class).toBe(shape);
        }
        if ('workspace_title' in event.data) expect(event.data.workspace_title).not.toBe('');
        // What the control answered is what was delivered.
        expect(answers.find((a) => a.id === event.id)).toMatchObject({ type: event.type, data: event.data });
      }
    } finally {
      if (!stopped) await listener.stop();
    }
  });

  it('merges data over the sample (objects deeply, unknown keys kept) and only subscribed active endpoints get it', async () => {
    const hooks = await receiver();
    try {
      const subscribed = await activeEndpoint(102, hooks.url, ['load_completed']);
      const other = await activeEndpoint(102, `${hooks.url}/other`, ['load_started']);
      // An unverified endpoint subscribed to the type gets nothing either.
      const unverified = await http(sb, 'POST', '/api/v3/webhook_endpoints/', {
        token: tokens[102],
        body: { url: `${hooks.url}/unverified`, event_types: ['load_completed'] },
      });
      expect(unverified.status).toBe(201);
      const res = await trigger({
        event_type: 'load_completed',
        workspace_id: '102',
        data: { load_id: '42', extra: { a: 1, nested: { b: 2 } } },
      });
      expect(res.status).toBe(201);
      expect(res.body.endpoints.map((e: any) => e.id)).toEqual([subscribed.id]);
      const again = await trigger({
        event_type: 'load_completed',
        workspace_id: 102,
        data: { extra: { nested: { c: 3 } } },
      });
      expect(again.status).toBe(201);
      await waitUntil(async () => {
        await settleClock(sb);
        return hooks.posts().length >= 2 ? true : undefined;
      });
      await settleClock(sb);
      const posts = hooks.posts();
      expect(posts.map((p) => p.url)).toEqual(['/hook', '/hook']);
      const [first, second] = posts.map((p) => JSON.parse(p.body));
      expect(first.data.load_id).toBe('42');
      expect(first.data.extra).toEqual({ a: 1, nested: { b: 2 } });
      expect(first.data.order_id).toMatch(/^\d+$/);
      expect(second.data.extra).toEqual({ nested: { c: 3 } });
      const log = (await http(sb, 'GET', `/_sandbox/webhook-deliveries?endpoint_id=${other.id}`)).body as any[];
      expect(log).toEqual([]);
      // The event is in the events log like any other.
      const events = (await http(sb, 'GET', '/_sandbox/events')).body as any[];
      expect(events.map((e) => e.id)).toContain(res.body.event.id);
    } finally {
      await hooks.close();
    }
  });

  it('a key of data replaces the sample value, the sample fills the rest, delivered to nobody when nobody subscribed', async () => {
    const res = await trigger({
      event_type: 'invite_accepted',
      workspace_id: 103,
      data: { invitee_user_email: 'someone@example.com' },
    });
    expect(res.status).toBe(201);
    expect(res.body.endpoints).toEqual([]);
    expect(res.body.event.data.invitee_user_email).toBe('someone@example.com');
    expect(res.body.event.data.agency_invite_accepted_date).toMatch(/^\d{4}-/);
    expect(res.body.event.data.agency_title).not.toBe('');
  });

  it('refuses an unknown event type with the nearest names, data not an object, a bad body (400), nothing sent', async () => {
    const before = (await http(sb, 'GET', '/_sandbox/events')).body.length;
    const unknown = await trigger({ event_type: 'load_complete', workspace_id: 102 });
    expect(unknown.status).toBe(400);
    expect(JSON.stringify(unknown.body)).toContain('load_completed');
    for (const body of [
      { event_type: 'load_completed', workspace_id: 102, data: [1] },
      { event_type: 'load_completed', workspace_id: 102, data: 'x' },
      { event_type: 'load_completed', workspace_id: 102, data: null },
      { event_type: 'load_completed' },
      { workspace_id: 102 },
      [1],
    ]) {
      expect((await trigger(body)).status, JSON.stringify(body)).toBe(400);
    }
    expect((await http(sb, 'GET', '/_sandbox/events')).body.length).toBe(before);
  });

  it('answers 404 for a workspace the agency does not have', async () => {
    const res = await trigger({ event_type: 'load_completed', workspace_id: 999999 });
    expect(res.status).toBe(404);
  });

  it('is guarded like every control: a page of another origin is refused', async () => {
    const res = await http(sb, 'POST', '/_sandbox/events', {
      body: { event_type: 'load_completed', workspace_id: 102 },
      headers: { origin: 'https://evil.example.com' },
    });
    expect(res.status).toBe(403);
  });
});
