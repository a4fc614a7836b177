import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { cli, parse, sandbox } from '../../helpers.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox();
});
afterAll(() => sb.close());

describe('edp workspaces get', () => {
  it('takes the id as its one argument', async () => {
    expect((await parse(['workspaces', 'get', '101'])).parsed?.opts).toEqual({ args: ['101'] });
    const missing = await parse(['workspaces', 'get']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("missing required argument 'id'");
  });

  it('shows one workspace', async () => {
    const r = await cli(sb, ['workspaces', 'get', '101', '--json']);
    expect(r.code).toBe(0);
    expect(r.json()).toEqual({ id: 101, title: 'Acme Retail' });
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
