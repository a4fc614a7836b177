import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { cli, sandbox } from '../helpers.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox();
});
afterAll(() => sb.close());

describe('edp workspaces', () => {
  it('lists every workspace as JSON', async () => {
    const r = await cli(sb, ['workspaces', 'list', '--json']);
    expect(r.code).toBe(0);
    expect(r.json().map((w: any) => w.title)).toEqual(['Acme Retail', 'Globex Media', 'Initech Apps']);
  });

  it('prints tab-separated rows when piped', async () => {
    const r = await cli(sb, ['workspaces', 'list']);
    expect(r.stdout.split('\n')[0]).toBe('101\tAcme Retail');
  });

  it('creates, gets and renames a workspace', async () => {
    const created = await cli(sb, ['workspaces', 'create', '--title', 'Umbrella', '--json']);
    expect(created.code).toBe(0);
    const id = String(created.json().id);
    const renamed = await cli(sb, ['workspaces', 'update', id, '--title', 'Umbrella Corp', '--json']);
    expect(renamed.json().title).toBe('Umbrella Corp');
    const got = await cli(sb, ['workspaces', 'get', id, '--json']);
    expect(got.json()).toEqual({ id: Number(id), title: 'Umbrella Corp' });
  });

  it('refuses an empty title before sending (exit 2)', async () => {
    const r = await cli(sb, ['workspaces', 'create', '--title', '  ']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--title');
  });

  it('refuses a non-integer id (exit 2)', async () => {
    const r = await cli(sb, ['workspaces', 'get', 'abc']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('workspace id');
  });

  it('maps 404 to exit 5 with status, message and trace id', async () => {
    const r = await cli(sb, ['workspaces', 'get', '999']);
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/404: Workspace not found/);
    expect(r.stderr).toMatch(/trace id: [0-9a-f]{16}/);
  });
});
