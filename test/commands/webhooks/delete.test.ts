import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { cli, http, sandbox, tokenFor } from '../../helpers.js';

let sb: Sandbox;
let token: string;
beforeAll(async () => {
  sb = await sandbox();
  token = await tokenFor(sb, 102);
});
afterAll(() => sb.close());

const W = ['-w', '102'];

async function create(url = 'https://hooks.example.com/x', events = 'load_completed') {
  const r = await cli(sb, ['webhooks', 'create', ...W, '--url', url, '--events', events, '--json']);
  expect(r.code).toBe(0);
  return r.json();
}

describe('edp webhooks delete', () => {
  it('requires --yes without a terminal (exit 2, kept)', async () => {
    const ep = await create();
    const r = await cli(sb, ['webhooks', 'delete', String(ep.id), ...W]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--yes');
    expect((await http(sb, 'GET', `/api/v3/webhook_endpoints/${ep.id}/`, { token })).status).toBe(200);
  });

  it('deletes with --yes; a second delete is exit 5', async () => {
    const ep = await create();
    const r = await cli(sb, ['webhooks', 'delete', String(ep.id), ...W, '--yes']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`Deleted webhook endpoint ${ep.id}`);
    expect((await cli(sb, ['webhooks', 'delete', String(ep.id), ...W, '--yes'])).code).toBe(5);
  });

  it('asks on a terminal', async () => {
    const ep = await create();
    const r = await cli(sb, ['webhooks', 'delete', String(ep.id), ...W], { tty: true, stdin: 'y\n' });
    expect(r.code).toBe(0);
    expect((await http(sb, 'GET', `/api/v3/webhook_endpoints/${ep.id}/`, { token })).status).toBe(404);
  });
});
