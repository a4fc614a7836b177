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
const count = async () => (await http(sb, 'GET', '/api/v3/webhook_endpoints/', { token })).body.count as number;

async function create(url = 'https://hooks.example.com/x', events = 'load_completed') {
  const r = await cli(sb, ['webhooks', 'create', ...W, '--url', url, '--events', events, '--json']);
  expect(r.code).toBe(0);
  return r.json();
}

describe('edp webhooks list', () => {
  it('lists every endpoint of the workspace, --limit caps it', async () => {
    await create();
    await create();
    const all = await cli(sb, ['webhooks', 'list', ...W, '--json']);
    expect(all.code).toBe(0);
    expect(all.json().length).toBe(await count());
    expect(all.json().every((e: any) => e.secret === undefined)).toBe(true);
    const one = await cli(sb, ['webhooks', 'list', ...W, '--limit', '1', '--ndjson']);
    expect(one.stdout.trim().split('\n')).toHaveLength(1);
    const rows = await cli(sb, ['webhooks', 'list', ...W]);
    expect(rows.stdout.split('\n')[0]).toMatch(/^\d+\tunverified\thttps:\/\//);
  });
});
