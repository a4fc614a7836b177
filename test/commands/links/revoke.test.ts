import { beforeEach, describe, expect, it } from 'vitest';
import { answerPrompts, freshConfig, http, PASSWORD, useSandbox, USERNAME } from '../../helpers.js';
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

  it('at a terminal, a used or expired link is refused before any question, saying why and what to do instead', async () => {
    const env = {
      EDP_BASE_URL: t.sb.url,
      EDP_USERNAME: USERNAME,
      EDP_PASSWORD: PASSWORD,
      EDP_CONFIG_DIR: freshConfig().dir,
    };
    const used = idOf('c@client.com');
    await http(t.sb, 'POST', `/_sandbox/external-auth-links/${used}/use`);
    const connection = t.sb.store.state.external_auth_links.find((l) => String(l.id) === used)!.connection_id;
    const seen: string[] = [];
    t.sb.app.server.on('request', (req: { method?: string; url?: string }) => seen.push(`${req.method} ${req.url}`));
    const r = await answerPrompts(['links', 'revoke', used, '--data-source', 'google_ads', '-w', '101'], [], env);
    expect(r.code).toBe(2);
    expect(r.err).not.toContain('Revoke link');
    expect(r.err).toContain(
      `link ${used} has already been used, and a used link cannot be revoked: its recipient made connection ${connection} with it, which stays. To remove that connection: \`edp connections delete ${connection} --data-source google_ads -w 101\``,
    );
    expect(seen.filter((x) => x.includes('/revoke'))).toEqual([]);

    const expired = idOf('d@client.com');
    await http(t.sb, 'POST', '/_sandbox/clock', { body: { advance_seconds: 14 * 24 * 3600 } });
    const e = await answerPrompts(['links', 'revoke', expired, '--data-source', 'google_ads', '-w', '101'], [], env);
    expect(e.code).toBe(2);
    expect(e.err).not.toContain('Revoke link');
    expect(e.err).toContain(`link ${expired} has expired (links last 14 days)`);
    expect(e.err).toContain('`edp links create --data-source google_ads --to d@client.com -w 101`');
  });

  it('at a terminal, an unused link is asked about, naming its recipient; one revoked already is not', async () => {
    const env = {
      EDP_BASE_URL: t.sb.url,
      EDP_USERNAME: USERNAME,
      EDP_PASSWORD: PASSWORD,
      EDP_CONFIG_DIR: freshConfig().dir,
    };
    const id = idOf('a@client.com');
    const asked = await answerPrompts(
      ['links', 'revoke', id, '--data-source', 'google_ads', '-w', '101'],
      [[`Revoke link ${id} (google_ads, to a@client.com) in workspace 101?`, 'y\r']],
      env,
    );
    expect(asked.unanswered).toBe(0);
    expect(asked.code).toBe(0);
    const again = await answerPrompts(['links', 'revoke', id, '--data-source', 'google_ads', '-w', '101'], [], env);
    expect(again.code).toBe(0);
    expect(again.err).not.toContain('Revoke link');
    expect(again.err).toContain(`Link ${id} is revoked`);
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
