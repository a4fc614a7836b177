import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { cli, http, sandbox, tokenFor } from '../../helpers.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox();
  // google_ads links of workspace 101, oldest first: a and b, then c, then d (e-mailed, requested by an analyst).
  const token = await tokenFor(sb, 101);
  for (const body of [
    { to_emails: ['a@client.com', 'b@client.com'], send_email: false },
    { to_emails: ['c@client.com'], send_email: false },
    { to_emails: ['d@client.com'], send_email: true, requested_by: 'analyst@sandbox.local' },
  ]) {
    const res = await http(sb, 'POST', '/api/v3/datasources/google_ads/external-auth-links', { token, body });
    expect(res.status).toBe(201);
  }
});
afterAll(() => sb.close());

const edp = (argv: string[], opts: Parameters<typeof cli>[2] = { env: { EDP_WORKSPACE: '101' } }) =>
  cli(sb, argv, opts);

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
