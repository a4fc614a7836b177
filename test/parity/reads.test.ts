import { beforeAll, describe, expect, test } from 'vitest';
import { writeCheck } from './checks.js';
import { allItems, call, expectStatus, idText, readWorkspace, tokenFor } from './target.js';
import { DATA_TABLE, DESTINATION, EXTRACT, LOAD } from './vendor-names.js';

/**
 * Reads of the operations the other checks do not reach: each answers 200 and, through the
 * suite's judge, its status and body are held to the OpenAPI document. Read-only: safe against
 * the real service without a scratch workspace. A list the workspace has nothing in skips the
 * read of one item.
 */
describe('reads of every resource', () => {
  let token: string;
  beforeAll(async () => {
    token = await tokenFor(await readWorkspace());
  });
  const auth = () => ({ auth: { bearer: token } });

  test('extracts: the list is paginated and an extract reads by its id (extracts.list; extracts.get)', async (ctx) => {
    const extracts = await allItems('/api/v3/extracts', { bearer: token });
    if (extracts.length === 0) return ctx.skip('no extract in the workspace');
    const res = await call('GET', `/api/v3/extracts/${idText(extracts[0].id)}`, auth());
    expectStatus(res, 200);
    expect(idText(res.body.id)).toBe(idText(extracts[0].id));
  });

  test("destinations: the list, a destination's connections, and one connection by its id (Destinations)", async (ctx) => {
    const destinations = await allItems('/api/v3/destinations', { bearer: token });
    expect(destinations.length).toBeGreaterThan(0);
    for (const d of destinations) {
      const name = String(d[DESTINATION.name] ?? '');
      if (!name) continue;
      const connections = await allItems(`/api/v3/destinations/${name}/connections`, { bearer: token });
      if (connections.length === 0) continue;
      const res = await call('GET', `/api/v3/destinations/${name}/connections/${idText(connections[0].id)}`, auth());
      expectStatus(res, 200);
      return;
    }
    ctx.skip('no destination connection in the workspace');
  });

  test('loads: a load reads by its id (loads.get)', async (ctx) => {
    const loads = await allItems('/api/v3/loads', { bearer: token });
    if (loads.length === 0) return ctx.skip('no load in the workspace');
    expectStatus(await call('GET', `/api/v3/loads/${idText(loads[0].id)}`, auth()), 200);
  });

  test('roles: a role reads by its id, with its users (roles.get; roles.users)', async () => {
    const roles = await allItems('/api/v3/roles/', 'basic');
    expect(roles.length).toBeGreaterThan(0);
    const id = idText(roles[0].id);
    expectStatus(await call('GET', `/api/v3/roles/${id}`, { auth: 'basic' }), 200);
    expectStatus(await call('GET', `/api/v3/roles/${id}/users`, { auth: 'basic' }), 200);
  });
});

/**
 * Writes that undo themselves, in the scratch workspace (and, for roles, the agency: a role the
 * check creates and deletes): each leaves what it found.
 */
describe('writes that leave things as they were', () => {
  let token: string;
  beforeAll(async () => {
    token = await tokenFor(await readWorkspace());
  });
  const auth = () => ({ auth: { bearer: token } });

  writeCheck('an extract pauses and unpauses (extracts.pause; extracts.unpause)', async (ctx) => {
    const extracts = await allItems('/api/v3/extracts', { bearer: token });
    const running = extracts.find((e) => e[EXTRACT.paused] !== true);
    if (!running) return ctx.skip('no running extract in the scratch workspace');
    const id = idText(running.id);
    expectStatus(await call('POST', `/api/v3/extracts/${id}/pause`, auth()), 200, 202, 204);
    expectStatus(await call('POST', `/api/v3/extracts/${id}/unpause`, auth()), 200, 202, 204);
  });

  writeCheck('a load pauses and unpauses (loads.pause; loads.unpause)', async (ctx) => {
    const loads = await allItems('/api/v3/loads', { bearer: token });
    const running = loads.find((l) => l[LOAD.paused] !== true);
    if (!running) return ctx.skip('no running load in the scratch workspace');
    const id = idText(running.id);
    expectStatus(await call('PUT', `/api/v3/loads/${id}/pause`, auth()), 200, 202, 204);
    expectStatus(await call('PUT', `/api/v3/loads/${id}/unpause`, auth()), 200, 202, 204);
  });

  writeCheck(
    'a data table takes the fields it already delivers: same payload as GET (tables.setFields; Data tables, PUT)',
    async (ctx) => {
      const tables = await allItems('/api/v3/data-tables', { bearer: token });
      if (tables.length === 0) return ctx.skip('no data table in the scratch workspace');
      const id = idText(tables[0].id);
      const read = await call('GET', `/api/v3/data-tables/${id}`, auth());
      expectStatus(read, 200);
      const fields: any[] = read.body.fields ?? read.body.schema ?? [];
      const selected = fields.filter((f) => f[DATA_TABLE.fieldSelected] !== false).map((f) => f.name);
      if (selected.length === 0) return ctx.skip('the data table delivers no field');
      const res = await call('PUT', `/api/v3/data-tables/${id}`, { ...auth(), json: { selected_fields: selected } });
      expectStatus(res, 200);
    },
  );

  writeCheck('a custom role is created, changed and deleted (roles.create; roles.update; roles.delete)', async () => {
    const title = `edp parity ${Date.now()}`;
    const created = await call('POST', '/api/v3/roles/', {
      auth: 'basic',
      json: { title, description: 'made and removed by the parity suite', permissions: [] },
    });
    expectStatus(created, 201);
    const id = idText(created.body.id);
    try {
      const changed = await call('PATCH', `/api/v3/roles/${id}`, {
        auth: 'basic',
        json: { title, description: 'changed by the parity suite', permissions: [] },
      });
      expectStatus(changed, 200);
    } finally {
      expectStatus(await call('DELETE', `/api/v3/roles/${id}`, { auth: 'basic' }), 200);
    }
  });
});
