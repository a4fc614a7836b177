import { describe, expect, it } from 'vitest';
import { useSandbox } from '../../helpers.js';
import { receiver } from '../../fixtures/webhooks.js';
import { create, W } from './fixtures.js';

const t = useSandbox({}, W);

describe('edp webhooks rotate-secret', () => {
  it('rotates the secret with --yes: new secret, unverified again; refuses without --yes', async () => {
    const r = await receiver();
    try {
      const ep = await create(t, r.url);
      expect((await t.edp('webhooks', 'verify', String(ep.id))).code).toBe(0);
      const refused = await t.edp('webhooks', 'rotate-secret', String(ep.id));
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('--yes');
      const rotated = await t.edp('webhooks', 'rotate-secret', String(ep.id), '--yes', '--json');
      expect(rotated.code).toBe(0);
      expect(rotated.json().secret).toMatch(/^[0-9a-f]{64}$/);
      expect(rotated.json().secret).not.toBe(ep.secret);
      expect(rotated.json().status).toBe('unverified');
      expect((await t.edp('webhooks', 'rotate-secret', '9999', '--yes')).code).toBe(5);
    } finally {
      await r.close();
    }
  });
});
