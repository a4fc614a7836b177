import { describe, expect, it } from 'vitest';
import { useSandbox } from '../../helpers.js';
import { receiver } from '../../fixtures/webhooks.js';
import { create, W } from './fixtures.js';

const t = useSandbox({}, W);

describe('edp webhooks verify', () => {
  it('verifies an endpoint whose receiver echoes the challenge', async () => {
    const r = await receiver();
    try {
      const ep = await create(t, r.url);
      const v = await t.edp('webhooks', 'verify', String(ep.id));
      expect(v.code).toBe(0);
      expect(v.stderr).toContain('verified and active');
    } finally {
      await r.close();
    }
  });

  it("reports a failed verification with the service's reason (exit 2)", async () => {
    const r = await receiver(() => ({ status: 404 }));
    try {
      const ep = await create(t, r.url);
      const v = await t.edp('webhooks', 'verify', String(ep.id));
      expect(v.code).toBe(2);
      expect(v.stderr).toContain('Verification failed: the receiver answered 404');
      expect((await t.edp('webhooks', 'verify', '9999')).code).toBe(5);
    } finally {
      await r.close();
    }
  });
});
