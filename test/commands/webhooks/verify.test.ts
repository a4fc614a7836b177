import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { cli, sandbox } from '../../helpers.js';
import { receiver } from '../../fixtures/webhooks.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox();
});
afterAll(() => sb.close());

const W = ['-w', '102'];

async function create(url = 'https://hooks.example.com/x', events = 'load_completed') {
  const r = await cli(sb, ['webhooks', 'create', ...W, '--url', url, '--events', events, '--json']);
  expect(r.code).toBe(0);
  return r.json();
}

describe('edp webhooks verify', () => {
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

  it("reports a failed verification with the service's reason (exit 2)", async () => {
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
});
