import { beforeEach, describe, expect, it } from 'vitest';
import { http, useSandbox } from '../../helpers.js';
import { seedLinks } from './fixtures.js';

const t = useSandbox({}, ['-w', '101'], { each: true });
beforeEach(() => seedLinks(t));

describe('edp links revoke', () => {
  const idOf = (email: string) => String(t.sb.store.state.external_auth_links.find((l) => l.email === email)!.id);

  it('revokes, and revoking again succeeds with the same revocation', async () => {
    const id = idOf('b@client.com');
    const first = await t.edp('links', 'revoke', id, '--data-source', 'google_ads', '--json', '--yes');
    expect(first.code).toBe(0);
    expect(first.json()).toMatchObject({ status: 'revoked_manually' });
    const again = await t.edp('links', 'revoke', id, '--data-source', 'google_ads', '--yes');
    expect(again.code).toBe(0);
    expect(again.stderr).toContain(`Link ${id} is revoked (since ${first.json().revoked_at})`);
  });

  it('a used link: 400 (exit 2) with the reason', async () => {
    const id = idOf('c@client.com');
    await http(t.sb, 'POST', `/_sandbox/external-auth-links/${id}/use`);
    const r = await t.edp('links', 'revoke', id, '--data-source', 'google_ads', '--yes');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('already been used');
  });

  it('an expired link: 400 (exit 2)', async () => {
    const id = idOf('d@client.com');
    await http(t.sb, 'POST', '/_sandbox/clock', { body: { advance_seconds: 14 * 24 * 3600 } });
    const r = await t.edp('links', 'revoke', id, '--data-source', 'google_ads', '--yes');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('expired');
  });

  it('an unknown link or another data source: 404 (exit 5)', async () => {
    expect((await t.edp('links', 'revoke', '99999', '--data-source', 'google_ads', '--yes')).code).toBe(5);
    expect((await t.edp('links', 'revoke', idOf('a@client.com'), '--data-source', 'facebook_ads', '--yes')).code).toBe(
      5,
    );
  });

  it('refuses a bad id or a missing --data-source before sending (exit 2)', async () => {
    const bad = await t.edp('links', 'revoke', 'x', '--data-source', 'google_ads');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('link id');
    const missing = await t.edp('links', 'revoke', idOf('a@client.com'));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--data-source');
  });
});
