import { beforeAll, describe, expect, test } from 'vitest';
import { unobservable } from './checks.js';
import {
  call,
  expectCodeEnvelope,
  expectDetailEnvelope,
  expectStatus,
  idText,
  otherWorkspace,
  readWorkspace,
  target,
  tokenFor,
} from './target.js';
import { DATASOURCE } from './vendor-names.js';

/** Contract: Authentication (table and rules 1-7), Tokens table, Errors (authentication_failed). */
describe('auth', () => {
  let workspace: number;
  let token: string;

  beforeAll(async () => {
    workspace = await readWorkspace();
    token = await tokenFor(workspace);
  });

  test('POST /api/v3/token with agency Basic credentials answers 200 {token} (token.issue)', async () => {
    const res = await call('POST', '/api/v3/token', { auth: 'basic', json: { workspace_id: workspace } });
    expectStatus(res, 200);
    expect(typeof res.body.token).toBe('string');
    expect(res.body.token.length).toBeGreaterThan(0);
  });

  test('POST /api/v3/token without workspace_id answers 400 (token.issue)', async () => {
    expectStatus(await call('POST', '/api/v3/token', { auth: 'basic', json: {} }), 400);
  });

  test('POST /api/v3/token for a workspace outside the agency answers 400 (token.issue)', async () => {
    expectStatus(await call('POST', '/api/v3/token', { auth: 'basic', json: { workspace_id: 2147483646 } }), 400);
  });

  test('POST /api/v3/token with invalid Basic credentials answers 401 (Authentication rule 2)', async () => {
    const res = await call('POST', '/api/v3/token', {
      auth: { basicAs: [target.username, `${target.password}-wrong`] },
      json: { workspace_id: workspace },
    });
    expectDetailEnvelope(res, 401);
  });

  test('a Basic operation without credentials answers 401 (workspaces.list; Authentication)', async () => {
    expectDetailEnvelope(await call('GET', '/api/v3/workspaces'), 401);
  });

  test('a Basic operation refuses a Bearer token with 401 (Authentication)', async () => {
    expectStatus(await call('GET', '/api/v3/workspaces', { auth: { bearer: token } }), 401);
  });

  test('a Bearer operation refuses Basic credentials with 401 (Authentication)', async () => {
    expectStatus(await call('GET', '/api/v3/datasources', { auth: 'basic' }), 401);
  });

  test('a Bearer operation with an invalid token answers 401 {detail} (Authentication rule 2)', async () => {
    expectDetailEnvelope(await call('GET', '/api/v3/datasources', { auth: { bearer: 'parity-invalid-token' } }), 401);
  });

  test('v3.1 recipes with an invalid token answer 401 authentication_failed in the code envelope (Errors: codes any operation can return)', async () => {
    const res = await call('GET', '/api/v3.1/automated-recipes/', { auth: { bearer: 'parity-invalid-token' } });
    expectCodeEnvelope(res, 401, 'authentication_failed');
    expect(res.body.details).toEqual({});
  });

  test('v3.1 recipes without credentials answer 401 authentication_failed (Errors: codes any operation can return)', async () => {
    expectCodeEnvelope(await call('GET', '/api/v3.1/automated-recipe-templates/'), 401, 'authentication_failed');
  });

  test('v3.1 recipes refuse Basic credentials with 401 authentication_failed (Automated recipes v3.1: all require Bearer or cookie)', async () => {
    expectCodeEnvelope(
      await call('GET', '/api/v3.1/automated-recipes/', { auth: 'basic' }),
      401,
      'authentication_failed',
    );
  });

  test('the v3.1 accounts list with an invalid token answers 401 authentication_failed (Errors: Two shapes 1)', async () => {
    expectCodeEnvelope(
      await call('GET', '/api/v3.1/connections/1/accounts/', { auth: { bearer: 'parity-invalid-token' } }),
      401,
      'authentication_failed',
    );
  });

  test('a cookie of an unknown session answers 401 authentication_failed (Errors: token missing, invalid, expired, or session expired)', async () => {
    const res = await call('GET', '/api/v3.1/automated-recipes/', {
      headers: { cookie: 'dts_session_id=parity-unknown-session', 'x-im-workspace-id': String(workspace) },
    });
    expectCodeEnvelope(res, 401, 'authentication_failed');
  });

  test('the Bearer token from POST /api/v3/token works on v3 and v3.1 unchanged (Authentication rule 3)', async () => {
    expectStatus(await call('GET', '/api/v3/automated-recipes/', { auth: { bearer: token } }), 200);
    expectStatus(await call('GET', '/api/v3.1/automated-recipes/', { auth: { bearer: token } }), 200);
  });

  test('a token is bound to its workspace: a connection of another workspace answers 404 not_found (v3.1 accounts rule 4)', async (ctx) => {
    const other = await otherWorkspace(workspace);
    if (other === undefined) return ctx.skip('the agency has one workspace only');
    const otherToken = await tokenFor(other);
    const sources = await call('GET', '/api/v3/datasources', { auth: { bearer: otherToken } });
    let connectionId: string | undefined;
    for (const ds of sources.body?.results ?? []) {
      const conns = await call('GET', `/api/v3/datasources/${encodeURIComponent(ds[DATASOURCE.name])}/connections`, {
        auth: { bearer: otherToken },
      });
      const first = conns.body?.results?.[0];
      if (first) {
        connectionId = idText(first.id);
        break;
      }
    }
    if (!connectionId) return ctx.skip('the other workspace has no connection');
    const res = await call('GET', `/api/v3.1/connections/${connectionId}/accounts/`, { auth: { bearer: token } });
    expectCodeEnvelope(res, 404, 'not_found');
  });

  // Rule 4 says "otherwise 403" while a Bearer token is not the Basic credential at all (401): either refuses.
  test('roles need the agency Basic credential: a Bearer token is refused with 401 or 403 (Authentication rule 4)', async () => {
    expectStatus(await call('GET', '/api/v3/roles/', { auth: { bearer: token } }), 401, 403);
  });

  test('the agency chief reads roles and the permission catalog with Basic (roles.list; roles.permissions; Roles table)', async () => {
    const roles = await call('GET', '/api/v3/roles/', { auth: 'basic' });
    expectStatus(roles, 200);
    const catalog = await call('GET', '/api/v3/roles/permissions', { auth: 'basic' });
    expectStatus(catalog, 200);
  });

  unobservable(
    'a cookie session plus X-IM-WORKSPACE-ID replaces Bearer (Authentication)',
    'how a cookie session is created is not shown (Authentication rule 6): no client can get one',
  );
  unobservable(
    'a token expires 30 minutes after its last use (Authentication rule 2)',
    'needs 30 idle minutes or a clock control',
  );
});
