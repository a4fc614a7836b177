import { describe, expect, it } from 'vitest';
import { cli, http, useSandbox } from '../../helpers.js';

const t = useSandbox({}, ['-w', '101']);
const linkCount = () => t.sb.store.state.external_auth_links.length;

describe('edp links create', () => {
  it('creates one link per address and prints them', async () => {
    const r = await t.edp(
      'links',
      'create',
      '--data-source',
      'google_ads',
      '--to',
      'a@client.com, b@client.com',
      '--to',
      'A@client.com',
      '--json',
    );
    expect(r.code).toBe(0);
    const links = r.json();
    expect(links.map((l: any) => [l.email, l.status, l.send_email])).toEqual([
      ['a@client.com', 'not_used', false],
      ['b@client.com', 'not_used', false],
    ]);
    expect(links[0].url).toMatch(/\/connect\//);
  });

  it('says when the links were not e-mailed; --send-email and --requested-by are passed on', async () => {
    const quiet = await t.edp('links', 'create', '--data-source', 'google_ads', '--to', 'c@client.com');
    expect(quiet.stderr).toContain('Created 1 google_ads link (valid 14 days, single use)');
    expect(quiet.stderr).toContain('Not e-mailed: send each address its URL.');
    expect(quiet.stdout).toMatch(/^\d+\tc@client\.com\tnot_used\t.*\thttp:\/\/.*\/connect\//);
    const mailed = await t.edp(
      'links',
      'create',
      '--data-source',
      'google_ads',
      '--to',
      'd@client.com',
      '--send-email',
      '--requested-by',
      'analyst@sandbox.local',
      '--json',
    );
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
    const r = await t.edp('links', 'create', '--data-source', 'google_ads', ...args);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(linkCount()).toBe(before);
  });

  it('needs --to (exit 2)', async () => {
    const r = await t.edp('links', 'create', '--data-source', 'google_ads');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--to');
  });

  it('requested_by outside the workspace: the service refuses (400, exit 2) and creates nothing', async () => {
    const before = linkCount();
    const r = await cli(t.sb, [
      'links',
      'create',
      '-w',
      '102',
      '--data-source',
      'google_ads',
      '--to',
      'e@client.com',
      '--requested-by',
      'analyst@sandbox.local',
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('400');
    expect(r.stderr).toContain('requested_by');
    expect(r.stderr).toContain('active agency user');
    expect(linkCount()).toBe(before);
  });

  it('an unknown data source: 400 (exit 2)', async () => {
    const r = await t.edp('links', 'create', '--data-source', 'nope', '--to', 'e@client.com');
    expect(r.code).toBe(2);
  });

  it('the agency feature flag off: 403 (exit 4)', async () => {
    await http(t.sb, 'PATCH', '/_sandbox/agency', { body: { external_auth_links: false } });
    try {
      const r = await t.edp('links', 'create', '--data-source', 'google_ads', '--to', 'f@client.com', '--json');
      expect(r.code).toBe(4);
      expect(r.errorJson().error).toMatchObject({ status: 403, message: expect.stringContaining('not enabled') });
    } finally {
      await http(t.sb, 'PATCH', '/_sandbox/agency', { body: { external_auth_links: true } });
    }
  });
});
