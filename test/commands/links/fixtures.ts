import { expect } from 'vitest';
import { http, tokenFor, type useSandbox } from '../../helpers.js';

/** google_ads links of workspace 101, oldest first: a and b, then c, then d (e-mailed, requested by an analyst). */
export async function seedLinks(t: ReturnType<typeof useSandbox>) {
  const token = await tokenFor(t.sb, 101);
  for (const body of [
    { to_emails: ['a@client.com', 'b@client.com'], send_email: false },
    { to_emails: ['c@client.com'], send_email: false },
    { to_emails: ['d@client.com'], send_email: true, requested_by: 'analyst@sandbox.local' },
  ]) {
    const res = await http(t.sb, 'POST', '/api/v3/datasources/google_ads/external-auth-links', { token, body });
    expect(res.status).toBe(201);
  }
}
