import { describe, expect, it } from 'vitest';
import { OPERATIONS, isOperationId, operation, operationPath } from '../../src/contract/operations.js';

describe('the registry of operations', () => {
  it('names each operation once, `noun.verb`, v3 variants of v3.1 operations prefixed with `v3.`', () => {
    const ids = OPERATIONS.map((o) => o.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBe(90);
    for (const id of ids) expect(id).toMatch(/^(v3\.)?[a-z][A-Za-z]*\.[a-z][A-Za-z]*$/);
    for (const o of OPERATIONS.filter((x) => x.id.startsWith('v3.'))) {
      // A `v3.` id is the v3 path of an operation whose v3.1 twin has the id without the prefix.
      expect(o.path.startsWith('/api/v3/')).toBe(true);
      const twin = operation(o.id.slice(3) as never);
      // (v3 lists accounts without the trailing slash v3.1 has)
      expect(twin.path.replace(/\/$/, '')).toBe(o.path.replace('/api/v3/', '/api/v3.1/').replace(/\/$/, ''));
      expect(twin.method).toBe(o.method);
    }
  });

  it('holds each method and path once', () => {
    const keys = OPERATIONS.map((o) => `${o.method} ${o.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('authenticates agency operations with Basic and workspace operations with Bearer', () => {
    const basic = OPERATIONS.filter((o) => o.auth === 'basic').map((o) => o.path);
    for (const p of basic) expect(p).toMatch(/^\/api\/v3\/(token|workspaces|recipes\/|get_iframe_url|roles\/)/);
    expect(OPERATIONS.filter((o) => o.auth === 'none').map((o) => o.id)).toEqual(['iframe.page']);
  });

  it('marks only writes as repeatable or changing nothing: reads always are', () => {
    for (const o of OPERATIONS.filter((x) => x.repeatable || x.changesNothing)) expect(o.method).not.toBe('GET');
    expect(operation('recipes.configure').repeatable).toBe(true);
    expect(operation('recipes.create').repeatable).toBeUndefined();
    expect(operation('token.issue').changesNothing).toBe(true);
  });

  it('builds request paths with each parameter encoded and the trailing slash kept', () => {
    expect(operationPath('recipes.build', { id: '42' })).toBe('/api/v3.1/automated-recipes/42/build/');
    expect(operationPath('v3.recipes.build', { id: 42 })).toBe('/api/v3/automated-recipes/42/build/');
    expect(operationPath('connections.list', { datasource_name: '../x y' })).toBe(
      '/api/v3/datasources/..%2Fx%20y/connections',
    );
    expect(operationPath('workspaces.list')).toBe('/api/v3/workspaces');
    expect(() => operationPath('loads.get', {} as never)).toThrow(/missing the path parameter id/);
    expect(() => operationPath('loads.get', { id: 1, other: 2 } as never)).toThrow(/no path parameter other/);
  });

  it('tells an id of the registry from any other string', () => {
    expect(isOperationId('loads.run')).toBe(true);
    expect(isOperationId('loads.explode')).toBe(false);
    expect(() => operation('loads.explode' as never)).toThrow(/no operation loads.explode/);
  });
});
