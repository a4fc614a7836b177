import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeEach } from 'vitest';
import { tempDir, useSandbox } from '../../helpers.js';
import { resetRecipes } from '../../fixtures/recipes.js';

/** The workspace of most recipes tests (`-w 101`). */
export const W = ['-w', '101'];
export const FAST = ['--poll-interval', '10ms'];

/** The sandbox of a recipes test file: builds take 50 ms, `-w 101` is appended, no recipes before each test. */
export function useRecipeSandbox() {
  const t = useSandbox({ buildSeconds: 0.05 }, W);
  beforeEach(() => resetRecipes(t.sb));
  return t;
}

/** A temporary folder for the test file (removed after its tests); `file(name, text)` writes one file there. */
export function useFiles(prefix: string) {
  const files = tempDir(prefix);
  afterAll(() => files.remove());
  return function file(name: string, text: string): string {
    const p = join(files.dir, name);
    writeFileSync(p, text);
    return p;
  };
}
