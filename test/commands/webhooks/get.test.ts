import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { cli, sandbox } from '../../helpers.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox();
});
afterAll(() => sb.close());

const W = ['-w', '102'];

async function create(url = 'https://hooks.example.com/x', events = 'load_completed') {
  const r = await cli(sb, ['webhooks', 'create', ...W, '--url', url, '--events', events, '--json']);
  expect(r.code).toBe(0);
  return r.json();
}

describe('edp webhooks get', () => {
  it('gets one endpoint; 404 is exit 5', async () => {
    const ep = await create();
    const got = await cli(sb, ['webhooks', 'get', String(ep.id), ...W, '--json']);
    expect(got.json()).toMatchObject({ id: ep.id, status: 'unverified' });
    expect(got.json().secret).toBeUndefined();
    const missing = await cli(sb, ['webhooks', 'get', '9999', ...W]);
    expect(missing.code).toBe(5);
    expect(missing.stderr).toContain('404');
    const other = await cli(sb, ['webhooks', 'get', String(ep.id), '-w', '101']);
    expect(other.code).toBe(5);
    const bad = await cli(sb, ['webhooks', 'get', 'x1', ...W]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('endpoint id');
  });
});
