import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { OPERATIONS, openApiPath } from '../../src/contract/operations.js';
import { http, sandbox } from '../helpers.js';

let sb: Sandbox;
let doc: any;
beforeAll(async () => {
  sb = await sandbox();
  doc = (await http(sb, 'GET', '/_sandbox/openapi.json')).body;
});
afterAll(() => sb.close());

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** A documented path's parameters given values: an id its digits, a name a word. */
function concrete(path: string): string {
  return path.replace(/\{([^}]+)\}/g, (_m, name: string) => (name.endsWith('_name') ? 'facebook' : '1'));
}

/** The request paths a documented path serves, each parameter as its schema reads it. */
function served(path: string): RegExp {
  const params = Object.values(doc.paths[path] as Record<string, any>).flatMap((op) => op.parameters ?? []);
  const body = path
    .split(/(\{[^}]+\})/)
    .map((part) => {
      const name = /^\{([^}]+)\}$/.exec(part)?.[1];
      if (!name) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      const pattern: string | undefined = params.find((p: any) => p.in === 'path' && p.name === name)?.schema.pattern;
      return pattern ? pattern.replace(/^\^|\$$/g, '') : '[^/]+';
    })
    .join('');
  return new RegExp(`^${body}$`);
}

describe('methods a path does not take', () => {
  it('are 405 on every documented path, with the methods it takes, unless a parameter route serves them', async () => {
    // The service's paths: the sandbox section's controls (/_sandbox/) answer other methods of their own.
    const documented = Object.keys(doc.paths).filter((p) => p.startsWith('/api/'));
    expect(new Set(documented)).toEqual(new Set(OPERATIONS.map((o) => openApiPath(o.path))));
    const checked: string[] = [];
    for (const path of documented) {
      const url = concrete(path);
      const takes = Object.keys(doc.paths[path]).map((m) => m.toUpperCase());
      for (const method of METHODS.filter((m) => !takes.includes(m))) {
        // Another operation's route may serve this request: `/api/v3/extracts/1` is no path of
        // `/api/v3/extracts/migrate-wide`'s, but `migrate-wide` is no id either.
        const other = documented.find(
          (p) => p !== path && doc.paths[p][method.toLowerCase()] !== undefined && served(p).test(url),
        );
        if (other) continue;
        const res = await http(sb, method, url, { basic: true, body: method === 'GET' ? undefined : {} });
        expect(res.status, `${method} ${url}`).toBe(405);
        const allow = (res.headers.get('allow') ?? '').split(', ');
        for (const m of takes) expect(allow, `${method} ${url}`).toContain(m);
        // In the envelope of the path (docs/contract-rules.md, Errors).
        expect(res.body.detail ?? res.body.message, `${method} ${url}`).toBe(`Method "${method}" not allowed.`);
        checked.push(`${method} ${url}`);
      }
    }
    expect(checked).toEqual(
      expect.arrayContaining([
        'GET /api/v3/extracts/migrate-wide',
        'PUT /api/v3/extracts/migrate-wide',
        'PATCH /api/v3/extracts/migrate-wide',
        'PATCH /api/v3/roles/',
        'DELETE /api/v3/roles/',
        'PATCH /api/v3/roles/permissions',
        'DELETE /api/v3/roles/permissions',
        'DELETE /api/v3/extracts/1',
      ]),
    );
    expect(checked.length).toBeGreaterThan(150);
  });

  it('a parameter route still serves its own ids beside a path of the same prefix', async () => {
    const res = await http(sb, 'GET', '/api/v3/roles/999999', { basic: true });
    expect(res.status).toBe(404);
    expect((await http(sb, 'GET', '/api/v3/roles/permissions', { basic: true })).status).toBe(200);
  });
});
