import { describe, expect, it } from 'vitest';
import { basePathOf, normalisedPath, sentPathProblem } from '../../src/api/path.js';

describe('request paths as they are sent', () => {
  it('resolves dot segments as a URL parser does, the query kept', () => {
    expect(normalisedPath('/api/v3/workspaces/../datasources/')).toBe('/api/v3/datasources/');
    expect(normalisedPath('/api/v3/%2e/x?a=1')).toBe('/api/v3/x?a=1');
    expect(normalisedPath('/.//h/x')).toBe('//h/x');
    expect(normalisedPath('/../../api/v3/x')).toBe('/api/v3/x');
  });

  it('takes the path of a base URL as the prefix every request goes under', () => {
    expect(basePathOf(new URL('http://h'))).toBe('');
    expect(basePathOf(new URL('http://h/'))).toBe('');
    expect(basePathOf(new URL('http://h/edp/'))).toBe('/edp');
    expect(basePathOf(new URL('http://h/a/b'))).toBe('/a/b');
  });

  it('finds no problem in the paths of the service', () => {
    for (const p of ['/', '/api/v3/workspaces', '/api/v3/datasources/a%2Fb/', '/api/v3/x//y', '/api/v3/%2e%2e%2e/'])
      expect(sentPathProblem(p, ''), p).toBeUndefined();
    expect(sentPathProblem('/edp/api/v3/workspaces', '/edp')).toBeUndefined();
    expect(sentPathProblem('/edp', '/edp')).toBeUndefined();
  });

  it('refuses a path read as another host as it is, or once a proxy decodes its separators', () => {
    for (const p of [
      '//h/x',
      '/%2f/h/x',
      '/%2F%2Fh/x',
      '/%5c/h/x',
      '/%5C%5Ch/x',
      '/a/..%2f/h/x',
      '/%2e%2e%2f%2fh/x',
      '/a/%2e%2E/%2f/h',
    ])
      expect(sentPathProblem(p, ''), p).toBe('it names another host');
  });

  it('refuses a path that leaves the prefix, or reads as another host after it', () => {
    expect(sentPathProblem('/other/api/v3/x', '/edp')).toMatch(/leaves \/edp/);
    expect(sentPathProblem('/edpx/api', '/edp')).toMatch(/leaves \/edp/);
    expect(sentPathProblem('/edp/..%2fother', '/edp')).toMatch(/leaves \/edp/);
    expect(sentPathProblem('/edp/%2e%2e%2fother/x', '/edp')).toMatch(/leaves \/edp/);
    expect(sentPathProblem('/edp//h/x', '/edp')).toBe('it names another host');
    expect(sentPathProblem('/edp/%2f/h/x', '/edp')).toBe('it names another host');
  });
});
