import { beforeAll, describe, expect, it } from 'vitest';
import { cli, http, useSandbox } from '../../helpers.js';
import { seedLinks } from './fixtures.js';

const t = useSandbox({}, ['-w', '101']);
beforeAll(() => seedLinks(t));

describe('edp links list', () => {
  it('lists newest first', async () => {
    const r = await t.edp('links', 'list', '--data-source', 'google_ads', '--json');
    expect(r.code).toBe(0);
    const ids = r.json().map((l: any) => l.id);
    expect(ids.length).toBeGreaterThan(3);
    expect(ids).toEqual([...ids].sort((a: number, b: number) => b - a));
  });

  it('--limit, and a terminal table with the status as sent', async () => {
    const r = await cli(t.sb, ['links', 'list', '--data-source', 'google_ads', '--limit', '2', '-w', '101'], {
      tty: true,
    });
    expect(r.stdout).toMatch(/ID.*EMAIL.*STATUS.*CREATED.*EXPIRES.*REQUESTED BY/);
    expect(r.stdout).toContain('analyst@sandbox.local');
    expect(r.stdout.match(/@client\.com/g)).toHaveLength(2);
  });

  it('shows an unknown status as it is', async () => {
    const link = t.sb.store.state.external_auth_links.find((l) => l.email === 'c@client.com')!;
    const control = `/_sandbox/external-auth-links/${link.id}`;
    expect((await http(t.sb, 'PATCH', control, { body: { served_status: 'quarantined' } })).status).toBe(200);
    try {
      const r = await t.edp('links', 'list', '--data-source', 'google_ads');
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/c@client\.com\tquarantined\t/);
    } finally {
      await http(t.sb, 'PATCH', control, { body: { served_status: null } });
    }
  });

  it('an unknown data source lists nothing', async () => {
    const r = await cli(t.sb, ['links', 'list', '--data-source', 'nope', '-w', '101'], { tty: true });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('No nope links in workspace 101.');
  });
});
