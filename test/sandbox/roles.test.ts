import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { http, sandbox } from '../helpers.js';

let sb: Sandbox;
beforeEach(async () => {
  sb = await sandbox();
});
afterEach(() => sb.close());
beforeEach(async () => {
  await http(sb, 'PATCH', '/_sandbox/agency', { body: { can_use_embedded_api: true } });
});

const roles = async () => (await http(sb, 'GET', '/api/v3/roles/', { basic: true })).body.results as any[];
const byTitle = async (title: string) => (await roles()).find((r) => r.title === title);

describe('roles: access', () => {
  it('needs Basic credentials (401)', async () => {
    expect((await http(sb, 'GET', '/api/v3/roles/')).status).toBe(401);
    expect(
      (await http(sb, 'GET', '/api/v3/roles/permissions', { basic: ['agency@sandbox.local', 'wrong'] })).status,
    ).toBe(401);
  });

  it('is for the agency chief only (403)', async () => {
    const analyst: [string, string] = ['analyst@sandbox.local', 'sandbox'];
    for (const path of ['/api/v3/roles/', '/api/v3/roles/permissions', '/api/v3/roles/1', '/api/v3/roles/1/users']) {
      const res = await http(sb, 'GET', path, { basic: analyst });
      expect(res.status).toBe(403);
      expect(res.body.detail).toContain('chief');
    }
  });

  it('needs the agency flag can_use_embedded_api (403)', async () => {
    await http(sb, 'PATCH', '/_sandbox/agency', { body: { can_use_embedded_api: false } });
    for (const [method, path] of [
      ['GET', '/api/v3/roles/'],
      ['GET', '/api/v3/roles/permissions'],
      ['POST', '/api/v3/roles/'],
      ['DELETE', '/api/v3/roles/1'],
    ] as const) {
      const res = await http(sb, method, path, {
        basic: true,
        body: method === 'POST' ? { title: 'X', permissions: [] } : undefined,
      });
      expect(res.status).toBe(403);
      expect(res.body.detail).toContain('embedded API');
    }
  });
});

describe('roles: catalog and list', () => {
  it('serves the ordered permission catalog, every entry with title and description', async () => {
    const res = await http(sb, 'GET', '/api/v3/roles/permissions', { basic: true });
    expect(res.status).toBe(200);
    expect(res.body.map((l: any) => l.layer)).toEqual([
      'WORKSPACE',
      'CONNECTION',
      'EXTRACT',
      'DATA_TABLE',
      'DESTINATION',
      'LOAD',
      'RECIPE',
    ]);
    for (const layer of res.body) {
      expect(layer.title && layer.description).toBeTruthy();
      for (const p of layer.permissions) expect(p.permission && p.title && p.description).toBeTruthy();
    }
    expect(res.body.find((l: any) => l.layer === 'EXTRACT').permissions.map((p: any) => p.permission)).toContain(
      'CREATE',
    );
  });

  it('lists system (non-internal) and custom roles with user_count', async () => {
    const list = await roles();
    expect(list.map((r) => [r.title, r.is_system, r.user_count])).toEqual([
      ['Workspace Admin', true, 1],
      ['Editor', true, 1],
      ['Viewer', true, 2],
      ['Media Buyer', false, 1],
    ]);
    expect(list.some((r) => r.title === 'Support Access')).toBe(false);
    const internalId = list[2].id + 1;
    expect((await http(sb, 'GET', `/api/v3/roles/${internalId}`, { basic: true })).status).toBe(404);
  });

  it('gets one role, 404 when missing', async () => {
    const viewer = await byTitle('Viewer');
    const res = await http(sb, 'GET', `/api/v3/roles/${viewer.id}`, { basic: true });
    expect(res.status).toBe(200);
    expect(res.body.permissions.every((p: any) => p.permission === 'VIEW')).toBe(true);
    expect((await http(sb, 'GET', '/api/v3/roles/9999', { basic: true })).status).toBe(404);
  });

  it("lists a role's users with their workspace assignment, 404 when missing", async () => {
    const viewer = await byTitle('Viewer');
    const res = await http(sb, 'GET', `/api/v3/roles/${viewer.id}/users`, { basic: true });
    expect(res.status).toBe(200);
    expect(res.body.results.map((u: any) => [u.email, u.workspaces.map((w: any) => w.id)])).toEqual([
      ['former@sandbox.local', [101]],
      ['editor@sandbox.local', [103]],
    ]);
    expect((await http(sb, 'GET', '/api/v3/roles/9999/users', { basic: true })).status).toBe(404);
  });

  it("keeps the contract's slashes: /roles/ with one, /roles/{id} and /roles/permissions without", async () => {
    expect((await http(sb, 'GET', '/api/v3/roles', { basic: true })).status).toBe(301);
    expect((await http(sb, 'GET', '/api/v3/roles/1/', { basic: true })).status).toBe(404);
    expect((await http(sb, 'GET', '/api/v3/roles/permissions/', { basic: true })).status).toBe(404);
  });
});

describe('roles: writes', () => {
  it('creates a custom role (201) with permission pairs from the catalog', async () => {
    const res = await http(sb, 'POST', '/api/v3/roles/', {
      basic: true,
      body: {
        title: 'Analyst',
        description: 'reads data',
        permissions: [
          { layer: 'DATA_TABLE', permission: 'VIEW' },
          { layer: 'LOAD', permission: 'RUN' },
        ],
      },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ title: 'Analyst', description: 'reads data', is_system: false, user_count: 0 });
    expect(res.body.permissions).toHaveLength(2);
  });

  it('refuses an empty title and unknown layers or permissions (400), creating nothing', async () => {
    const before = (await roles()).length;
    const empty = await http(sb, 'POST', '/api/v3/roles/', { basic: true, body: { title: '  ', permissions: [] } });
    expect(empty.status).toBe(400);
    expect(empty.body.title).toBeTruthy();
    const bad = await http(sb, 'POST', '/api/v3/roles/', {
      basic: true,
      body: {
        title: 'Bad',
        permissions: [
          { layer: 'EXTRACT', permission: 'FLY' },
          { layer: 'MOON', permission: 'VIEW' },
        ],
      },
    });
    expect(bad.status).toBe(400);
    expect(bad.body['permissions[0].permission'][0]).toContain('FLY');
    expect(bad.body['permissions[1].layer'][0]).toContain('MOON');
    expect((await roles()).length).toBe(before);
  });

  it('refuses a title already used in the agency (409), system titles included', async () => {
    for (const title of ['Media Buyer', 'media buyer ', 'Viewer']) {
      const res = await http(sb, 'POST', '/api/v3/roles/', { basic: true, body: { title, permissions: [] } });
      expect(res.status).toBe(409);
      expect(res.body.detail).toContain('already exists');
    }
  });

  it('patches a custom role: title, description, permissions; 400 and 409 as on create', async () => {
    const created = (
      await http(sb, 'POST', '/api/v3/roles/', { basic: true, body: { title: 'Temp', permissions: [] } })
    ).body;
    const res = await http(sb, 'PATCH', `/api/v3/roles/${created.id}`, {
      basic: true,
      body: { title: 'Temp 2', permissions: [{ layer: 'RECIPE', permission: 'BUILD' }] },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      title: 'Temp 2',
      description: '',
      permissions: [{ layer: 'RECIPE', permission: 'BUILD' }],
    });
    expect((await http(sb, 'PATCH', `/api/v3/roles/${created.id}`, { basic: true, body: { title: '' } })).status).toBe(
      400,
    );
    expect(
      (
        await http(sb, 'PATCH', `/api/v3/roles/${created.id}`, {
          basic: true,
          body: { permissions: [{ layer: 'X', permission: 'Y' }] },
        })
      ).status,
    ).toBe(400);
    expect(
      (await http(sb, 'PATCH', `/api/v3/roles/${created.id}`, { basic: true, body: { title: 'Editor' } })).status,
    ).toBe(409);
    // its own title is not a conflict
    expect(
      (
        await http(sb, 'PATCH', `/api/v3/roles/${created.id}`, {
          basic: true,
          body: { title: 'Temp 2', description: 'd' },
        })
      ).status,
    ).toBe(200);
    expect((await http(sb, 'PATCH', '/api/v3/roles/9999', { basic: true, body: { title: 'Z' } })).status).toBe(404);
  });

  it('refuses to change or delete a system role (403)', async () => {
    const editor = await byTitle('Editor');
    const patch = await http(sb, 'PATCH', `/api/v3/roles/${editor.id}`, {
      basic: true,
      body: { description: 'mine now' },
    });
    expect(patch.status).toBe(403);
    expect(patch.body.detail).toContain('system role');
    expect((await http(sb, 'DELETE', `/api/v3/roles/${editor.id}`, { basic: true })).status).toBe(403);
    expect((await byTitle('Editor')).description).not.toBe('mine now');
  });

  it('deletes a custom role, moving its users to Viewer (reassigned_users_count)', async () => {
    const viewerBefore = await byTitle('Viewer');
    const buyer = await byTitle('Media Buyer');
    const events = (await http(sb, 'GET', '/_sandbox/events')).body.length;
    const res = await http(sb, 'DELETE', `/api/v3/roles/${buyer.id}`, { basic: true });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ reassigned_users_count: 1 });
    expect((await http(sb, 'GET', `/api/v3/roles/${buyer.id}`, { basic: true })).status).toBe(404);
    expect((await byTitle('Viewer')).user_count).toBe(viewerBefore.user_count + 1);
    const users = (await http(sb, 'GET', `/api/v3/roles/${viewerBefore.id}/users`, { basic: true })).body.results;
    expect(users.find((u: any) => u.email === 'analyst@sandbox.local').workspaces).toEqual([
      { id: 101, title: 'Acme Retail' },
    ]);
    const emitted = (await http(sb, 'GET', '/_sandbox/events')).body.slice(events);
    expect(emitted.map((e: any) => [e.type, e.workspace_id, e.shape])).toEqual([
      ['user_workspace_role_changed', 101, 'Workspace'],
    ]);
    expect((await http(sb, 'DELETE', `/api/v3/roles/${buyer.id}`, { basic: true })).status).toBe(404);
  });
});
