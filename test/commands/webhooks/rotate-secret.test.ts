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

describe('edp webhooks rotate-secret', () => {
  it('rotates the secret with --yes: new secret, unverified again; refuses without --yes', async () => {
    const r = await receiver();
    try {
      const ep = await create(r.url);
      expect((await cli(sb, ['webhooks', 'verify', String(ep.id), ...W])).code).toBe(0);
      const refused = await cli(sb, ['webhooks', 'rotate-secret', String(ep.id), ...W]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('--yes');
      const rotated = await cli(sb, ['webhooks', 'rotate-secret', String(ep.id), ...W, '--yes', '--json']);
      expect(rotated.code).toBe(0);
      expect(rotated.json().secret).toMatch(/^[0-9a-f]{64}$/);
      expect(rotated.json().secret).not.toBe(ep.secret);
      expect(rotated.json().status).toBe('unverified');
      expect((await cli(sb, ['webhooks', 'rotate-secret', '9999', ...W, '--yes'])).code).toBe(5);
    } finally {
      await r.close();
    }
  });
});
