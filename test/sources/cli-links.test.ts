import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { cli, http, sandbox } from '../helpers.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox();
});
afterAll(() => sb.close());

const edp = (argv: string[], opts: Parameters<typeof cli>[2] = { env: { EDP_WORKSPACE: '101' } }) => cli(sb, argv, opts);
const linkCount = () => sb.store.state.external_auth_links.length;

describe('edp links create', () => {
  it('creates one link per address and prints them', async () => {
    const r = await edp(['links', 'create', '--data-source', 'google_ads', '--to', 'a@client.com, b@client.com', '--to', 'A@client.com', '--json']);
    expect(r.code).toBe(0);
    const links = r.json();
    expect(links.map((l: any) => [l.email, l.status, l.send_email])).toEqual([['a@client.com', 'not_used', false], ['b@client.com', 'not_used', false]]);
    expect(links[0].url).toMatch(/\/connect\//);
  });

  it('says when the links were not e-mailed; --send-email and --requested-by are passed on', async () => {
    const quiet = await edp(['links', 'create', '--data-source', 'google_ads', '--to', 'c@client.com']);
    expect(quiet.stderr).toContain('Created 1 google_ads link (valid 14 days, single use)');
    expect(quiet.stderr).toContain('Not e-mailed: send each address its URL.');
    expect(quiet.stdout).toMatch(/^\d+\tc@client\.com\tnot_used\t.*\thttp:\/\/.*\/connect\//);
    const mailed = await edp(['links', 'create', '--data-source', 'google_ads', '--to', 'd@client.com', '--send-email', '--requested-by', 'analyst@sandbox.local', '--json']);
    expect(mailed.code).toBe(0);
    expect(mailed.json()[0]).toMatchObject({ send_email: true, requested_by: 'analyst@sandbox.local' });
    expect(mailed.stderr).not.toContain('Not e-mailed');
  });

  it.each([
    [['--to', 'a@client.com,not-an-address'], '--to: "not-an-address" is not an e-mail address'],
    [['--to', ' , '], '--to needs at least one e-mail address'],
    [['--to', 'a@client.com', '--requested-by', 'boss'], '--requested-by: "boss" is not an e-mail address'],
  ])('bad e-mail input %j: exit 2, nothing sent', async (args, message) => {
    const before = linkCount();
    const r = await edp(['links', 'create', '--data-source', 'google_ads', ...args]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(linkCount()).toBe(before);
  });

  it('needs --to (exit 2)', async () => {
    const r = await edp(['links', 'create', '--data-source', 'google_ads']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--to');
  });

  it('requested_by outside the workspace: the service refuses (400, exit 2) and creates nothing', async () => {
    const before = linkCount();
    const r = await edp(['links', 'create', '-w', '102', '--data-source', 'google_ads', '--to', 'e@client.com', '--requested-by', 'analyst@sandbox.local'], {});
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('400');
    expect(r.stderr).toContain('requested_by');
    expect(r.stderr).toContain('active agency user');
    expect(linkCount()).toBe(before);
  });

  it('an unknown data source: 400 (exit 2)', async () => {
    const r = await edp(['links', 'create', '--data-source', 'nope', '--to', 'e@client.com']);
    expect(r.code).toBe(2);
  });

  it('the agency feature flag off: 403 (exit 4)', async () => {
    await http(sb, 'PATCH', '/_sandbox/agency', { body: { external_auth_links: false } });
    try {
      const r = await edp(['links', 'create', '--data-source', 'google_ads', '--to', 'f@client.com', '--json']);
      expect(r.code).toBe(4);
      expect(r.errorJson().error).toMatchObject({ status: 403, message: expect.stringContaining('not enabled') });
    } finally {
      await http(sb, 'PATCH', '/_sandbox/agency', { body: { external_auth_links: true } });
    }
  });
});

describe('edp links list', () => {
  it('lists newest first', async () => {
    const r = await edp(['links', 'list', '--data-source', 'google_ads', '--json']);
    expect(r.code).toBe(0);
    const ids = r.json().map((l: any) => l.id);
    expect(ids.length).toBeGreaterThan(3);
    expect(ids).toEqual([...ids].sort((a: number, b: number) => b - a));
  });

  it('--limit, and a terminal table with the status as sent', async () => {
    const r = await edp(['links', 'list', '--data-source', 'google_ads', '--limit', '2', '-w', '101'], { tty: true });
    expect(r.stdout).toMatch(/ID.*EMAIL.*STATUS.*CREATED.*EXPIRES.*REQUESTED BY/);
    expect(r.stdout).toContain('analyst@sandbox.local');
    expect(r.stdout.match(/@client\.com/g)).toHaveLength(2);
  });

  it('shows an unknown status as it is', async () => {
    const link = sb.store.state.external_auth_links.find((l) => l.email === 'c@client.com')!;
    const saved = link.status;
    (link as { status: string }).status = 'quarantined';
    try {
      const r = await edp(['links', 'list', '--data-source', 'google_ads']);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/c@client\.com\tquarantined\t/);
    } finally {
      link.status = saved;
    }
  });

  it('an unknown data source lists nothing', async () => {
    const r = await edp(['links', 'list', '--data-source', 'nope', '-w', '101'], { tty: true });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('No nope links in workspace 101.');
  });
});

describe('edp links revoke', () => {
  const idOf = (email: string) => String(sb.store.state.external_auth_links.find((l) => l.email === email)!.id);

  it('revokes, and revoking again succeeds with the same revocation', async () => {
    const id = idOf('b@client.com');
    const first = await edp(['links', 'revoke', id, '--data-source', 'google_ads', '--json', '--yes']);
    expect(first.code).toBe(0);
    expect(first.json()).toMatchObject({ status: 'revoked_manually' });
    const again = await edp(['links', 'revoke', id, '--data-source', 'google_ads', '--yes']);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain(`Link ${id} is revoked (since ${first.json().revoked_at})`);
  });

  it('a used link: 400 (exit 2) with the reason', async () => {
    const id = idOf('c@client.com');
    await http(sb, 'POST', `/_sandbox/external-auth-links/${id}/use`);
    const r = await edp(['links', 'revoke', id, '--data-source', 'google_ads', '--yes']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('already been used');
  });

  it('an expired link: 400 (exit 2)', async () => {
    const id = idOf('d@client.com');
    await http(sb, 'POST', '/_sandbox/clock', { body: { advance_seconds: 14 * 24 * 3600 } });
    const r = await edp(['links', 'revoke', id, '--data-source', 'google_ads', '--yes']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('expired');
  });

  it('an unknown link or another data source: 404 (exit 5)', async () => {
    expect((await edp(['links', 'revoke', '99999', '--data-source', 'google_ads', '--yes'])).code).toBe(5);
    expect((await edp(['links', 'revoke', idOf('a@client.com'), '--data-source', 'facebook_ads', '--yes'])).code).toBe(5);
  });

  it('refuses a bad id or a missing --data-source before sending (exit 2)', async () => {
    const bad = await edp(['links', 'revoke', 'x', '--data-source', 'google_ads']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('link id');
    const missing = await edp(['links', 'revoke', idOf('a@client.com')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--data-source');
  });
});
