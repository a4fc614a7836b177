import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isOperationId } from '../../src/contract/operations.js';

/** Every source file under src/, with its comments left out (a comment may name a path). */
function sources(dir = 'src'): Array<{ file: string; code: string }> {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    if (!e.name.endsWith('.ts')) return [];
    const code = readFileSync(p, 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/^\s*\/\/.*$/gm, '');
    return [{ file: p.split('\\').join('/'), code }];
  });
}

/**
 * Where a path of the service may be written out: the registry and what the contract says of
 * requests, `edp api` (the one command whose path is the user's: its usage and examples), and
 * the sandbox's own reading of paths (the document's security, the error envelope by prefix, a
 * message naming v3.1).
 */
const MAY_NAME_PATHS = [
  /^src\/contract\//,
  /^src\/commands\/api\//,
  /^src\/sandbox\/openapi\.ts$/,
  /^src\/sandbox\/errors\.ts$/,
  /^src\/sandbox\/routes\/recipes\/v3\.ts$/,
];

describe('one registry of operations', () => {
  const all = sources();

  it('no path of the service is written out outside the registry: it is built from an operation id', () => {
    const found = all
      .filter((s) => !MAY_NAME_PATHS.some((re) => re.test(s.file)))
      .flatMap((s) => [...s.code.matchAll(/\/api\/v3[^\s'"`]*/g)].map((m) => `${s.file}: ${m[0]}`));
    expect(found).toEqual([]);
  });

  it("every call of an operation, the client's and the sandbox's, names an id of the registry", () => {
    const calls = all.flatMap((s) =>
      [
        ...s.code.matchAll(
          /\b(?:api\.(?:call|read|list)|requestFor|plannedRequest|serve)(?:<[^(]*>)?\(\s*(?:app,\s*|scope,\s*)?'([^']+)'/g,
        ),
      ].map((m) => ({ file: s.file, id: m[1]! })),
    );
    expect(calls.length).toBeGreaterThan(150);
    expect(calls.filter((c) => !isOperationId(c.id))).toEqual([]);
  });

  it("requests are built from the registry: only the service client, token issuance, the sandbox's controls and `edp api` send one by hand", () => {
    const raw = all
      .filter((s) => /\bclient\s*\.\s*(request|get)\b|\.list\(\s*\{\s*path:/.test(s.code))
      .map((s) => s.file)
      .sort();
    expect(raw).toEqual([
      'src/api/auth.ts',
      'src/api/sandbox-controls.ts',
      'src/api/service.ts',
      'src/commands/api/api.ts',
    ]);
  });
});
