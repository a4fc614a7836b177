import { beforeAll, describe, expect, it } from 'vitest';
import { tokenFor, useSandbox } from '../../helpers.js';
import { create, endpoint, W } from './fixtures.js';

const t = useSandbox({}, W);
let token: string;
beforeAll(async () => {
  token = await tokenFor(t.sb, 102);
});

describe('edp webhooks update', () => {
  it('replaces the subscription', async () => {
    const ep = await create(t);
    const r = await t.edp('webhooks', 'update', String(ep.id), '--events', 'load_started,load_created', '--json');
    expect(r.code).toBe(0);
    expect(r.json().event_types).toEqual(['load_started', 'load_created']);
  });

  it('refuses unknown names (exit 2, unchanged) and a missing endpoint (exit 5)', async () => {
    const ep = await create(t);
    const r = await t.edp('webhooks', 'update', String(ep.id), '--events', 'load_finished');
    expect(r.code).toBe(2);
    expect((await endpoint(t, token, ep.id)).body.event_types).toEqual(['load_completed']);
    expect((await t.edp('webhooks', 'update', '9999', '--events', 'load_started')).code).toBe(5);
  });
});
