import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { normalisedPath } from '../../../src/api/path.js';
import { defaultAuthFor, encodedSeparator } from '../../../src/commands/api/api.js';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { cli, control, sandbox } from '../../helpers.js';

// `edp api PATH` chooses Basic or Bearer by the operation the path names. A path whose escapes
// hide a separator (`..%2F`) names one operation to the registry and maybe another to the
// server, so it is refused: agency credentials never go to a path that is not an agency one.

/** Forms of `../` hidden in escapes: upper and lower case, mixed, escaped twice, `..;`. */
const HIDDEN = [
  '/api/v3/extracts/..%2Fworkspaces',
  '/api/v3/extracts/..%2fworkspaces',
  '/api/v3/extracts/%2e%2e%2fworkspaces',
  '/api/v3/extracts/%2E%2E%2Fworkspaces',
  '/api/v3/extracts/.%2E%2fworkspaces',
  '/api/v3/extracts/%2e.%2Fworkspaces',
  '/api/v3/extracts/1%2F..%2F..%2Fworkspaces',
  '/api/v3/extracts/%252e%252e/workspaces',
  '/api/v3/extracts/%252E%252E%252Fworkspaces',
  '/api/v3/extracts/..%252Fworkspaces',
  '/api/v3/extracts/%25252e%25252e%25252fworkspaces',
  '/api/v3/extracts/..%5Cworkspaces',
  '/api/v3/extracts/..%255cworkspaces',
  '/api/v3/extracts/..;/workspaces',
  '/api/v3/extracts/%2e%2e%3b/workspaces',
  '/api/v3/extracts/1/run%2F',
  '/api/v3/workspaces%2F..%2Fextracts',
];

describe('a path whose escapes hide a separator', () => {
  it('is found in every form, as it will be sent', () => {
    for (const p of HIDDEN) expect(encodedSeparator(normalisedPath(p)), p).toBeDefined();
    expect(encodedSeparator('/api/v3/extracts/..%2Fworkspaces')).toBe('..%2Fworkspaces');
  });

  it('is not found in a plain path, dot segments a URL parser resolves, or other escapes', () => {
    for (const p of [
      '/api/v3/workspaces',
      '/api/v3/extracts/12/run',
      '/api/v3/datasources/%2E%2e/workspaces',
      '/api/v3/extracts/../workspaces',
      '/api/v3/datasources/google%20ads/connections',
      '/api/v3/%2e%2e%2e/',
      '/api/v3/extracts/...',
      '/api/v3/extracts/.hidden',
      '/api/v3/workspaces?next=%2F..%2Fx',
      '/api/v3/datasources/caf%C3%A9/connections',
      '/api/v3/datasources/100%25/connections',
    ])
      expect(encodedSeparator(normalisedPath(p)), p).toBeUndefined();
  });

  it('resolved by a URL parser, chooses the credentials of the path as sent', () => {
    expect(defaultAuthFor(normalisedPath('/api/v3/extracts/%2e%2E/workspaces'), 'GET')).toBe('basic');
    expect(defaultAuthFor(normalisedPath('/api/v3/workspaces/%2e%2E/extracts'), 'GET')).toBe('bearer');
  });
});

describe('edp api against the sandbox', () => {
  let sb: Sandbox;
  beforeEach(async () => {
    sb = await sandbox();
  });
  afterEach(() => sb.close());

  it('refuses a path with a hidden separator, naming it, whatever the credentials (exit 2, nothing sent)', async () => {
    for (const p of HIDDEN) {
      for (const auth of [[], ['--basic'], ['--bearer']]) {
        const r = await cli(sb, ['-w', '101', 'api', 'GET', p, ...auth]);
        expect(r.code, `${p} ${auth.join(' ')}: ${r.stderr}`).toBe(2);
        expect(r.stderr).toContain(`path "${p}" is not sent`);
        expect(r.stderr).toContain('write the path with plain "/"');
      }
    }
    const { results } = (await control(sb, 'GET', '/requests')) as { results: unknown[] };
    expect(results).toEqual([]);
  });

  it('sends agency credentials only to agency operations', async () => {
    const workspaces = await cli(sb, ['-w', '101', 'api', '/api/v3/extracts/%2E%2e/workspaces']);
    expect(workspaces.code, workspaces.stderr).toBe(0);
    const extracts = await cli(sb, ['-w', '101', 'api', '/api/v3/workspaces/%2e./extracts']);
    expect(extracts.code, extracts.stderr).toBe(0);
    const { results } = (await control(sb, 'GET', '/requests')) as {
      results: Array<{ path: string; auth: string }>;
    };
    expect(results.map((q) => [q.path, q.auth])).toEqual([
      ['/api/v3/workspaces', 'basic'],
      ['/api/v3/token', 'basic'],
      ['/api/v3/extracts', 'bearer'],
    ]);
  });
});
