import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, it } from 'vitest';
import { collected, requireBuild, ROOT } from './helpers.js';

/**
 * `import { startSandbox } from 'edp/sandbox'` as docs/sandbox.md shows it, from the build: the
 * two examples a test suite copies, each run by its own runner in a process of its own (the
 * package resolves itself by name through package.json's exports). scripts/test-install.mjs runs
 * the same import, and the types, from the installed tarball. The two runs share nothing (each
 * starts its own sandboxes on free ports), so they run at once: each spends part of its time
 * starting its runner and waiting on its own child processes.
 */

const run = (args: string[]) =>
  collected(
    spawn(process.execPath, args, {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );

describe.concurrent('the packaged sandbox', () => {
  beforeAll(requireBuild);

  it('runs the node:test example with node --test', async ({ expect }) => {
    // TAP, whatever the Node: newer ones report to a pipe as `spec` by default.
    const r = await run(['--test', '--test-reporter=tap', 'examples/sandbox-node-test.test.mjs']);
    expect(r.code, `${r.stdout}${r.stderr}`).toBe(0);
    expect(r.stdout).toMatch(/^# pass 3$/m);
  });

  it('runs the vitest example', async ({ expect }) => {
    const r = await run([
      join(ROOT, 'node_modules/vitest/vitest.mjs'),
      'run',
      '--config',
      'examples/vitest.config.mjs',
    ]);
    expect(r.code, `${r.stdout}${r.stderr}`).toBe(0);
    expect(r.stdout).toMatch(/Tests\s+3 passed/);
  });
});
