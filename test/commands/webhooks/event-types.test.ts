import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { cli, sandbox } from '../../helpers.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox();
});
afterAll(() => sb.close());

const W = ['-w', '102'];

describe('edp webhooks event-types', () => {
  it('lists the 90 event types, silent ones noted', async () => {
    const r = await cli(sb, ['webhooks', 'event-types', ...W]);
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n').filter(Boolean);
    expect(lines).toHaveLength(90);
    expect(lines).toContain('workspace_created\t');
    expect(lines.find((l) => l.startsWith('connection_created\t'))).toContain('silent');
    expect((await cli(sb, ['webhooks', 'event-types', ...W, '--limit', '5', '--json'])).json()).toHaveLength(5);
  });
});
