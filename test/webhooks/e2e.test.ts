import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { cli, http, sandbox } from '../helpers.js';
import { eventually, freePort, startListen } from '../fixtures/webhooks.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox({ webhookDelay: 0.05, webhookRetryDelays: [0, 0.1, 0.1, 0.1] });
});
afterAll(() => sb.close());

describe('webhooks end to end', () => {
  it('an event reaches `edp webhooks listen` signed, and is printed once although the sandbox retries it', async () => {
    const port = await freePort();
    const created = await cli(sb, ['webhooks', 'create', '-w', '101', '--url', `http://127.0.0.1:${port}/edp`, '--events', 'workspace_created', '--json']);
    expect(created.code).toBe(0);
    const { id, secret } = created.json();

    const listener = await startListen([], { port, env: { EDP_WEBHOOK_SECRET: secret } });
    let stopped = false;
    try {
      const verified = await cli(sb, ['webhooks', 'verify', String(id), '-w', '101', '--json']);
      expect(verified.code).toBe(0);
      expect(verified.json().status).toBe('active');

      // The listener's first acknowledgement is lost on the way back: the sandbox delivers again.
      await http(sb, 'PATCH', '/_sandbox/webhooks', { body: { lost_answers: 1 } });
      const ws = await cli(sb, ['workspaces', 'create', '--title', 'Delivered Co', '--json']);
      expect(ws.code).toBe(0);

      const log = await eventually(async () => {
        const d = (await http(sb, 'GET', `/_sandbox/webhook-deliveries?endpoint_id=${id}`)).body as any[];
        return d.some((x) => x.outcome === 'delivered') ? d : undefined;
      });
      expect(log.map((d) => [d.attempt, d.outcome, d.status_code])).toEqual([[1, 'failed', 200], [2, 'delivered', 200]]);
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
    const { id, secret } = (await cli(sb, ['webhooks', 'create', '-w', '102', '--url', `http://127.0.0.1:${port}/edp`, '--events', 'workspace_created', '--json'])).json();
    const listener = await startListen(['--secret', secret], { port });
    try {
      expect((await cli(sb, ['webhooks', 'verify', String(id), '-w', '102'])).code).toBe(0);
      const rotated = await cli(sb, ['webhooks', 'rotate-secret', String(id), '-w', '102', '--yes', '--json']);
      expect(rotated.json().status).toBe('unverified');
      await cli(sb, ['workspaces', 'create', '--title', 'Not Delivered Co']);
      await new Promise((r) => setTimeout(r, 200));
      expect((await http(sb, 'GET', `/_sandbox/webhook-deliveries?endpoint_id=${id}`)).body).toEqual([]);
    } finally {
      const result = await listener.stop();
      expect(result.stdout).toBe('');
    }
  });
});
