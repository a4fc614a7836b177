import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { advanceClock, cli, http, tempDir, useSandbox, waitUntil } from '../../helpers.js';
import { freePort, startListen } from '../../fixtures/webhooks.js';

// One receiver for a fleet: apply writes each new endpoint's secret to a file the listener
// reads, so `apply --verify` verifies every workspace's endpoint through it.

describe('webhooks across a fleet', () => {
  const t = useSandbox({}, [], { each: true });

  it('apply --secrets-file --verify: one listener verifies and then checks the endpoints of every workspace', async () => {
    const dir = tempDir('edp-secrets-');
    const port = await freePort();
    const secrets = join(dir.dir, 'secrets.json');
    const fleet = join(dir.dir, 'fleet.yaml');
    const url = `http://127.0.0.1:${port}/hooks`;
    const { writeFileSync } = await import('node:fs');
    writeFileSync(fleet, `workspaces: [101, 102]\nwebhooks:\n  - url: ${url}\n    events: [workspace_created]\n`);
    // Started first, with no file yet: it reads the file as apply writes it.
    const listener = await startListen(['--secrets-file', secrets], { port });
    let stopped = false;
    try {
      const r = await cli(t.sb, ['apply', '-f', fleet, '--yes', '--verify', '--secrets-file', secrets, '--json']);
      expect(r.code, r.stderr).toBe(0);
      const rows = r.json();
      expect(rows.map((x: any) => [x.workspace_id, x.resource, x.result, x.state])).toEqual([
        [101, 'webhook', 'ok', 'active'],
        [102, 'webhook', 'ok', 'active'],
      ]);
      // No secret in the output: it is in the file, 0600, one per endpoint.
      expect(r.stdout).not.toMatch(/"secret"/);
      expect(rows[0].note).toBe(`secret written to ${secrets}`);
      expect(statSync(secrets).mode & 0o777).toBe(0o600);
      const file = JSON.parse(readFileSync(secrets, 'utf8'));
      expect(file.format_version).toBe(1);
      expect(file.endpoints.map((e: any) => [e.workspace_id, e.endpoint_id])).toEqual(
        rows.map((x: any) => [String(x.workspace_id), String(x.id)]).sort(),
      );
      expect(new Set(file.endpoints.map((e: any) => e.secret)).size).toBe(2);

      // Each endpoint is delivered the event, signed with its own secret, and both are accepted.
      const created = await cli(t.sb, ['workspaces', 'create', '--title', 'Fleet Co']);
      expect(created.code, created.stderr).toBe(0);
      // Deliveries go --webhook-delay (1 s) of the sandbox's clock after the event.
      await advanceClock(t.sb, 1);
      for (const row of rows)
        await waitUntil(
          async () => {
            const d = (await http(t.sb, 'GET', `/_sandbox/webhook-deliveries?endpoint_id=${row.id}`)).body as any[];
            return d.some((x) => x.outcome === 'delivered');
          },
          { what: `a delivery to endpoint ${row.id}` },
        );
      const result = await listener.stop();
      stopped = true;
      expect(result.stdout.trim().split('\n')).toHaveLength(2);
      expect(result.stderr).toContain('2 endpoint secret(s) from');
      expect(result.stderr).not.toContain('refused');
    } finally {
      if (!stopped) await listener.stop();
      dir.remove();
    }
  });

  it('listen takes --secret more than once and accepts a delivery signed with any of them', async () => {
    const port = await freePort();
    const listener = await startListen(['--secret', 'a'.repeat(64), '--secret', 'b'.repeat(64)], { port });
    try {
      const { createHmac } = await import('node:crypto');
      for (const [secret, status] of [
        ['a'.repeat(64), 200],
        ['b'.repeat(64), 200],
        ['c'.repeat(64), 401],
      ] as const) {
        const timestamp = new Date().toISOString().replace('T', ' ').replace('Z', '');
        const body = JSON.stringify({ id: `evt_${secret[0]}`, type: 'load_completed', timestamp, data: {} });
        const sig = createHmac('sha256', secret).update(body).digest('hex');
        const res = await fetch(`${listener.url}/hook`, {
          method: 'POST',
          body,
          headers: { 'X-Service-Signature': sig },
        });
        expect(res.status).toBe(status);
      }
    } finally {
      const r = await listener.stop();
      expect(
        r.stdout
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l).id),
      ).toEqual(['evt_a', 'evt_b']);
    }
  });
});
