import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PARTS } from '../parts.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');

// The scripts that run a part of the suite name its folders (vitest takes them as filters): they
// must name exactly the folders the configuration gives that part, or a new folder's tests would
// run in `npm test` but in no part.
const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
  .scripts;
const folders = (script: string) => [...scripts[script]!.matchAll(/\btest\/([\w-]+)\//g)].map((m) => m[1]!).sort();

describe('the scripts of the parts of the suite', () => {
  it.each([
    ['test:unit', PARTS.unit],
    ['test:cli', PARTS.cli],
    ['test:fast', [...PARTS.unit, ...PARTS.cli]],
    ['test:sandbox', PARTS.sandbox],
    ['test:e2e', PARTS.e2e],
    ['test:tools', PARTS.tools],
  ])('%s runs the folders of its part', (script, parts) => {
    expect(folders(script)).toEqual([...parts].sort());
  });

  it('every folder of test/ with tests belongs to a part, or is the parity suite', () => {
    const withTests = new Set(
      readdirSyncRecursive(join(ROOT, 'test'))
        .filter((f) => f.endsWith('.test.ts'))
        .map((f) => f.split('/')[0]!),
    );
    expect([...withTests].sort()).toEqual([...Object.values(PARTS).flat(), 'parity'].sort());
  });
});

function readdirSyncRecursive(dir: string): string[] {
  return (readdirSync(dir, { recursive: true }) as string[]).map((f) => f.split('\\').join('/'));
}
