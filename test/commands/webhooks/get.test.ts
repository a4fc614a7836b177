import { describe, expect, it } from 'vitest';
import { cli, useSandbox } from '../../helpers.js';
import { create, W } from './fixtures.js';

const t = useSandbox({}, W);

describe('edp webhooks get', () => {
  it('gets one endpoint; 404 is exit 5', async () => {
    const ep = await create(t);
    const got = await t.edp('webhooks', 'get', String(ep.id), '--json');
    expect(got.json()).toMatchObject({ id: ep.id, status: 'unverified' });
    expect(got.json().secret).toBeUndefined();
    const missing = await t.edp('webhooks', 'get', '9999');
    expect(missing.code).toBe(5);
    expect(missing.stderr).toContain('404');
    const other = await cli(t.sb, ['webhooks', 'get', String(ep.id), '-w', '101']);
    expect(other.code).toBe(5);
    const bad = await t.edp('webhooks', 'get', 'x1');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('endpoint id');
  });
});
