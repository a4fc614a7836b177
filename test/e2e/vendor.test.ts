import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: the build's own list, plain JavaScript
import { NODE_CJS_NAMESPACE, VENDOR, vendorFile } from '../../scripts/vendor.mjs';
import { ROOT, requireBuild, unusableBuild } from './helpers.js';

// Every library the built tool loads on first use, loaded once from dist/vendor: each must give
// the names, and the kinds of value, that Node's import() of the package gives the sources. A
// fault here (a default export that is the module object) is a crash at a person's terminal.

const require = createRequire(import.meta.url);
beforeAll(requireBuild);

describe('dist/vendor', () => {
  for (const name of VENDOR as string[]) {
    it(`${name}: the same exports as import('${name}')`, async () => {
      const vendored = require(join(ROOT, 'dist', vendorFile(name))) as Record<string, unknown>;
      const original = (await import(name)) as Record<string, unknown>;
      const kinds = (m: Record<string, unknown>) =>
        Object.fromEntries(
          Object.keys(m)
            .filter((k) => k !== NODE_CJS_NAMESPACE)
            .map((k) => [k, typeof m[k]]),
        );
      const { __esModule: _marker, ...exports } = kinds(vendored);
      expect(exports).toEqual(kinds(original));
    });
  }

  it('the exports the sources use are of the right kind', () => {
    const load = (name: string) => require(join(ROOT, 'dist', vendorFile(name))) as Record<string, any>;
    expect(typeof load('ora').default).toBe('function');
    expect(typeof load('yaml').parse).toBe('function');
    expect(typeof load('yaml').stringify).toBe('function');
    expect(typeof load('cli-table3').default).toBe('function');
    for (const prompt of ['confirm', 'input', 'password', 'select', 'checkbox', 'search'])
      expect(typeof load('@inquirer/prompts')[prompt]).toBe('function');
    expect(typeof load('zod').z.object).toBe('function');
  });
});

describe('the build under test', () => {
  it('a dist/ older than a source file is refused, naming the file', () => {
    const root = mkdtempSync(join(tmpdir(), 'edp-stale-'));
    try {
      mkdirSync(join(root, 'dist'));
      mkdirSync(join(root, 'src', 'api'), { recursive: true });
      for (const f of ['dist/cli.cjs', 'dist/sandbox.js', 'dist/help.txt']) writeFileSync(join(root, f), '');
      writeFileSync(join(root, 'src/api/client.ts'), '');
      const past = new Date(Date.now() - 60_000);
      utimesSync(join(root, 'dist/help.txt'), past, past);
      expect(unusableBuild(root)).toMatch(/^dist\/ is older than src\/api\/client\.ts: .*npm run build/);
      utimesSync(join(root, 'src/api/client.ts'), new Date(past.getTime() - 1000), new Date(past.getTime() - 1000));
      expect(unusableBuild(root)).toBeUndefined();
      rmSync(join(root, 'dist/sandbox.js'));
      expect(unusableBuild(root)).toMatch(/^dist\/sandbox\.js is missing/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
