import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { cli, sandbox } from '../../helpers.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox();
});
afterAll(() => sb.close());

describe('edp workspaces update', () => {
  it('renames a workspace', async () => {
    const created = await cli(sb, ['workspaces', 'create', '--title', 'Umbrella', '--json']);
    const id = String(created.json().id);
    const renamed = await cli(sb, ['workspaces', 'update', id, '--title', 'Umbrella Corp', '--json']);
    expect(renamed.code).toBe(0);
    expect(renamed.json().title).toBe('Umbrella Corp');
    const got = await cli(sb, ['workspaces', 'get', id, '--json']);
    expect(got.json()).toEqual({ id: Number(id), title: 'Umbrella Corp' });
  });
});
