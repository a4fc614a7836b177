import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir, useSandbox } from '../../helpers.js';
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

describe('edp webhooks rotate-secret --secrets-file', () => {
  const files = tempDir('edp-rotate-secrets-');
  afterAll(() => files.remove());

  it("replaces the endpoint's entry with the new secret, which is printed nowhere", async () => {
    const file = join(files.dir, 'secrets.json');
    const made = await t.edp(
      'webhooks',
      'create',
      '--url',
      'https://hooks.example.com/rot',
      '--events',
      'load_completed',
      '--secrets-file',
      file,
    );
    expect(made.code, made.stderr).toBe(0);
    const [first] = JSON.parse(readFileSync(file, 'utf8')).endpoints;
    const r = await t.edp('webhooks', 'rotate-secret', first.endpoint_id, '--yes', '--secrets-file', file);
    expect(r.code, r.stderr).toBe(0);
    const entries = JSON.parse(readFileSync(file, 'utf8')).endpoints;
    expect(entries).toHaveLength(1);
    expect(entries[0].endpoint_id).toBe(first.endpoint_id);
    expect(entries[0].secret).toMatch(/^[0-9a-f]{64}$/);
    expect(entries[0].secret).not.toBe(first.secret);
    expect(r.stdout + r.stderr).not.toContain(entries[0].secret);
    const live = t.sb.store.state.webhook_endpoints?.find((e: any) => String(e.id) === first.endpoint_id);
    expect(live?.secret).toBe(entries[0].secret);
  });
});
