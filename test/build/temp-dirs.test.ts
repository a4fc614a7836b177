import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import suite from '../../vitest.config.js';
import bundle from '../../vitest.bundle.config.js';
import tools from '../../vitest.tools.config.js';
import { fileTempDir, removeTempDirs, tempDir } from '../temp-dirs.js';

// The temporary folders tests make (config folders, files to read, state files) are removed
// when their test file ends, so /tmp does not fill over runs.

describe("a test file's temporary folders", () => {
  it('are removed together when the file ends; the folder its tests share is then a new one', () => {
    const file = expect.getState().testPath!;
    const own = tempDir('edp-temp-dirs-');
    const shared = fileTempDir('edp-temp-dirs-shared-');
    expect(fileTempDir('edp-temp-dirs-shared-')).toBe(shared);
    expect([own.dir, shared].map(existsSync)).toEqual([true, true]);
    removeTempDirs(file);
    expect([own.dir, shared].map(existsSync)).toEqual([false, false]);
    const again = fileTempDir('edp-temp-dirs-shared-');
    expect(again).not.toBe(shared);
    expect(existsSync(again)).toBe(true);
    removeTempDirs(file);
    expect(existsSync(again)).toBe(false);
  });

  it('are removed after every file of each configuration that runs the suite (its setup file)', () => {
    const configs = [
      suite.test,
      ...(bundle.test!.projects as Array<{ test: typeof suite.test }>).map((p) => p.test),
      tools.test,
    ];
    for (const test of configs) expect(test?.setupFiles).toEqual(['test/setup.ts']);
  });
});
