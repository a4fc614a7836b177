import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { cli, sandbox } from '../../helpers.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox();
});
afterAll(() => sb.close());

describe('edp workspaces create', () => {
  it('creates a workspace and prints it', async () => {
    const created = await cli(sb, ['workspaces', 'create', '--title', 'Umbrella', '--json']);
    expect(created.code).toBe(0);
    const got = await cli(sb, ['workspaces', 'get', String(created.json().id), '--json']);
    expect(got.json()).toEqual({ id: created.json().id, title: 'Umbrella' });
  });

  it('refuses an empty title before sending (exit 2)', async () => {
    const r = await cli(sb, ['workspaces', 'create', '--title', '  ']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--title');
  });
});
