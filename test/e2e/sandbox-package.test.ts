import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { requireBuild, ROOT } from './helpers.js';

/**
 * `import { startSandbox } from 'edp/sandbox'` as docs/sandbox.md shows it, from the build: the
 * two examples a test suite copies, each run by its own runner in a process of its own (the
 * package resolves itself by name through package.json's exports). scripts/test-install.mjs runs
 * the same import, and the types, from the installed tarball.
 */

const run = (args: string[]) =>
  spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });

describe('the packaged sandbox', () => {
  beforeAll(requireBuild);

  it('runs the node:test example with node --test', () => {
    const r = run(['--test', 'examples/sandbox-node-test.test.mjs']);
    expect(r.status, `${r.stdout}${r.stderr}`).toBe(0);
    expect(r.stdout).toMatch(/^# pass 3$/m);
  });

  it('runs the vitest example', () => {
    const r = run([join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', '--config', 'examples/vitest.config.mjs']);
    expect(r.status, `${r.stdout}${r.stderr}`).toBe(0);
    expect(r.stdout).toMatch(/Tests\s+3 passed/);
  });
});
