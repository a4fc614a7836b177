import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { cli, http, parse, settleClock, useSandbox, waitUntil } from '../../helpers.js';
import { receiver } from '../../fixtures/webhooks.js';

const t = useSandbox({ webhookDelay: 0.02, webhookRetryDelays: [0, 0.05, 0.05, 0.05] }, [], { each: true });

/** An active endpoint of workspace 101 at `url`, made and verified through the CLI. */
async function endpoint(url: string, events: string) {
  const created = await cli(t.sb, ['webhooks', 'create', '-w', '101', '--url', url, '--events', events, '--json']);
  expect(created.code, created.stderr).toBe(0);
  const { id, secret } = created.json();
  const verified = await cli(t.sb, ['webhooks', 'verify', String(id), '-w', '101']);
  expect(verified.code, verified.stderr).toBe(0);
  return { id: id as number, secret: secret as string };
}

const eventCount = async () => ((await http(t.sb, 'GET', '/_sandbox/events')).body as unknown[]).length;

describe('edp sandbox trigger', () => {
  it('is a verb of sandbox, while sandbox with its options still runs the sandbox', async () => {
    const verb = await parse(['sandbox', 'trigger', 'load_completed', '-w', '101', '--data', '{}']);
    expect(verb.parsed?.command).toBe('sandbox trigger');
    expect(verb.parsed?.opts).toEqual({ args: ['load_completed'], data: '{}' });
    expect(verb.parsed?.globals.workspace).toBe('101');
    const server = await parse(['sandbox', '--port', '0']);
    expect(server.parsed?.command).toBe('sandbox');
    expect(server.parsed?.opts.port).toBe('0');
  });

  it('sends a signed delivery with --data merged to the subscribed endpoint, a line per endpoint', async () => {
    const hooks = await receiver();
    try {
      const subscribed = await endpoint(hooks.url, 'load_completed');
      const other = await endpoint(`${hooks.url}/other`, 'load_started');
      const r = await cli(t.sb, [
        'sandbox',
        'trigger',
        'load_completed',
        '-w',
        '101',
        '--data',
        '{"load_id": "42", "extra": {"note": "from a test"}}',
      ]);
      expect(r.code, r.stderr).toBe(0);
      const lines = r.stdout.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(`endpoint ${subscribed.id} ${hooks.url}`);
      expect(lines[0]).toContain('load_completed');
      await waitUntil(async () => {
        await settleClock(t.sb);
        return hooks.posts().length > 0 ? true : undefined;
      });
      await settleClock(t.sb);
      const posts = hooks.posts();
      expect(posts.map((p) => p.url)).toEqual(['/hook']);
      const post = posts[0]!;
      const expected = createHmac('sha256', subscribed.secret).update(post.body).digest('hex');
      expect(post.headers['x-service-signature']).toBe(expected);
      const event = JSON.parse(post.body);
      expect(event.type).toBe('load_completed');
      expect(event.data.load_id).toBe('42');
      expect(event.data.extra).toEqual({ note: 'from a test' });
      expect(event.data.product_domain_event_aggregate_class).toBe('Load');
      const log = (await http(t.sb, 'GET', `/_sandbox/webhook-deliveries?endpoint_id=${other.id}`)).body;
      expect(log).toEqual([]);
    } finally {
      await hooks.close();
    }
  });

  it('--json prints the control answer: the event and the endpoints', async () => {
    const hooks = await receiver();
    try {
      const ep = await endpoint(hooks.url, 'workspace_created');
      const r = await cli(t.sb, ['sandbox', 'trigger', 'workspace_created', '-w', '101', '--json']);
      expect(r.code, r.stderr).toBe(0);
      const answer = r.json();
      expect(answer.endpoints).toEqual([{ id: ep.id, url: hooks.url }]);
      expect(answer.event).toMatchObject({ type: 'workspace_created', workspace_id: 101 });
      expect(answer.event.data.product_domain_event).toBe('workspace_created');
    } finally {
      await hooks.close();
    }
  });

  it('says so when no endpoint is subscribed (exit 0, nothing sent)', async () => {
    const r = await cli(t.sb, ['sandbox', 'trigger', 'load_started', '-w', '101']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('no active endpoint of workspace 101 is subscribed');
  });

  it('refuses bad --data naming the flag, and an unknown type with did you mean, exit 2, nothing sent', async () => {
    const before = await eventCount();
    for (const [argv, message] of [
      [['load_completed', '--data', '{"load_id": '], '--data'],
      [['load_completed', '--data', '[1, 2]'], '--data must be a JSON object'],
      [['load_completed', '--data', '"text"'], '--data must be a JSON object'],
      [['load_complete'], 'did you mean load_completed'],
    ] as const) {
      const r = await cli(t.sb, ['sandbox', 'trigger', ...argv, '-w', '101']);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr).toContain(message);
    }
    expect(await eventCount()).toBe(before);
  });

  it('a workspace the agency does not have is the control 404, nothing sent', async () => {
    const before = await eventCount();
    const r = await cli(t.sb, ['sandbox', 'trigger', 'load_completed', '-w', '999999']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('999999');
    expect(await eventCount()).toBe(before);
  });
});
