import { beforeAll, describe, expect, it } from 'vitest';
import { cli, tokenFor, useSandbox } from '../../helpers.js';
import { create, endpoint, W } from './fixtures.js';

const t = useSandbox({}, W);
let token: string;
beforeAll(async () => {
  token = await tokenFor(t.sb, 102);
});

describe('edp webhooks delete', () => {
  it('requires --yes without a terminal (exit 2, kept)', async () => {
    const ep = await create(t);
    const r = await t.edp('webhooks', 'delete', String(ep.id));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--yes');
    expect((await endpoint(t, token, ep.id)).status).toBe(200);
  });

  it('deletes with --yes; a second delete is exit 5', async () => {
    const ep = await create(t);
    const r = await t.edp('webhooks', 'delete', String(ep.id), '--yes');
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`Deleted webhook endpoint ${ep.id}`);
    expect((await t.edp('webhooks', 'delete', String(ep.id), '--yes')).code).toBe(5);
  });

  it('asks on a terminal', async () => {
    const ep = await create(t);
    const r = await cli(t.sb, ['webhooks', 'delete', String(ep.id), ...W], { tty: true, stdin: 'y\n' });
    expect(r.code).toBe(0);
    expect((await endpoint(t, token, ep.id)).status).toBe(404);
  });
});
