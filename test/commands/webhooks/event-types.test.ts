import { describe, expect, it } from 'vitest';
import { useSandbox } from '../../helpers.js';
import { W } from './fixtures.js';

const t = useSandbox({}, W);

describe('edp webhooks event-types', () => {
  it('lists the 90 event types, silent ones noted', async () => {
    const r = await t.edp('webhooks', 'event-types');
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n').filter(Boolean);
    expect(lines).toHaveLength(90);
    expect(lines).toContain('workspace_created\t');
    expect(lines.find((l) => l.startsWith('connection_created\t'))).toContain('silent');
    expect((await t.edp('webhooks', 'event-types', '--limit', '5', '--json')).json()).toHaveLength(5);
  });
});
