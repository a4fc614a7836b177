import { describe, expect, it } from 'vitest';
import { requestFor } from '../../src/api/operation.js';

describe('a request from the registry', () => {
  it('takes method, path, authentication and retry safety from the entry', () => {
    expect(requestFor('recipes.build', { params: { id: '7' }, workspaceId: '101' })).toMatchObject({
      method: 'POST',
      path: '/api/v3.1/automated-recipes/7/build/',
      auth: 'bearer',
      workspaceId: '101',
      repeatable: false,
    });
    expect(requestFor('recipes.configure', { params: { id: '7' }, body: {} })).toMatchObject({
      method: 'PUT',
      repeatable: true,
    });
    expect(requestFor('workspaces.get', { params: { id: 'a/b' } })).toMatchObject({
      path: '/api/v3/workspaces/a%2Fb',
      auth: 'basic',
      repeatable: true,
    });
    expect(requestFor('token.issue', { body: {} })).toMatchObject({ repeatable: true, changesNothing: true });
    expect(requestFor('webhooks.create', { body: {} }).repeatable).toBe(false);
  });

  it('refuses a parameter the path does not have, or one it lacks', () => {
    expect(() => requestFor('loads.get', { params: {} as never })).toThrow(/missing the path parameter id/);
    expect(() => requestFor('loads.list', { params: { id: 1 } as never })).toThrow(/no path parameter id/);
  });
});
