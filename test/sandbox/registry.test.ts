import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS, type OperationId } from '../../src/contract/operations.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { requireEveryOperation, serve } from '../../src/sandbox/operations.js';
import { sandbox } from '../helpers.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox();
});
afterAll(() => sb.close());

/** A bare server held to the registry, with handlers bound for `ids`. */
function bound(ids: readonly string[]) {
  const app = Fastify();
  requireEveryOperation(app);
  for (const id of ids) serve(app, id as OperationId, async () => ({}));
  return app;
}

describe('the sandbox serves the registry', () => {
  it('serves every operation at its method and path', () => {
    const missing = OPERATIONS.filter((o) => !sb.app.hasRoute({ method: o.method, url: o.path }));
    expect(missing).toEqual([]);
  });

  it('does not start with an operation that has no handler', async () => {
    const app = bound(OPERATIONS.map((o) => o.id).filter((id) => id !== 'loads.run'));
    await expect(app.ready()).rejects.toThrow(/loads\.run \(PUT \/api\/v3\/loads\/:id\/run\) has no handler/);
  });

  it('does not start with a route under /api/ that is not an operation of the registry', async () => {
    const app = bound(OPERATIONS.map((o) => o.id));
    expect(() => app.get('/api/v3/extra', async () => ({}))).toThrow(/GET \/api\/v3\/extra is not an operation/);
    await app.close();
  });

  it('does not start with an operation bound twice', async () => {
    const app = bound(OPERATIONS.map((o) => o.id));
    expect(() => serve(app, 'loads.run', async () => ({}))).toThrow();
    await app.close();
  });

  it('starts with each operation bound once, and pages of its own outside /api/', async () => {
    const app = bound(OPERATIONS.map((o) => o.id));
    app.get('/_sandbox/page', async () => ({}));
    await expect(app.ready()).resolves.toBeDefined();
    await app.close();
  });
});
