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

describe('edp webhooks update', () => {
  it('replaces the subscription', async () => {
    const ep = await create();
    const r = await cli(sb, [
      'webhooks',
      'update',
      String(ep.id),
      ...W,
      '--events',
      'load_started,load_created',
      '--json',
    ]);
    expect(r.code).toBe(0);
    expect(r.json().event_types).toEqual(['load_started', 'load_created']);
  });

  it('refuses unknown names (exit 2, unchanged) and a missing endpoint (exit 5)', async () => {
    const ep = await create();
    const r = await cli(sb, ['webhooks', 'update', String(ep.id), ...W, '--events', 'load_finished']);
    expect(r.code).toBe(2);
    expect((await http(sb, 'GET', `/api/v3/webhook_endpoints/${ep.id}/`, { token })).body.event_types).toEqual([
      'load_completed',
    ]);
    expect((await cli(sb, ['webhooks', 'update', '9999', ...W, '--events', 'load_started'])).code).toBe(5);
  });
});
