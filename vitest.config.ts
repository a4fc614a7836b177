import { defineConfig } from 'vitest/config';
import { PARTS, SUITE, testFiles } from './test/parts.js';
import { memoryTempEnv } from './test/memory-temp.js';

// The suite's parts (test/parts.ts) run alone through npm run test:unit, test:cli, test:fast,
// test:sandbox and test:e2e; e2e runs the built bin/edp.js (`npm test` builds dist/ first). The
// outside tools' part (npm run test:tools, vitest.tools.config.ts) and the parity suite (npm run
// test:parity, against a target of its own) run alone.
// Two cores here: files run in parallel in two forked workers, each test with a sandbox of its own
// on a free port (test/helpers.ts), each file with a config folder of its own. The whole suite is
// one project whose workers share their modules across files (isolate: false): a worker imports
// the CLI, the sandbox and the test helpers from the sources once, not once per file, nor once
// per project (vitest starts new workers for each project, and importing is most of a small
// file's time). It holds because no test mocks a module or leaves global state behind (every test
// has its own sandbox and io, every file its config folder); the shuffled run in CI keeps it
// honest.
export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    maxWorkers: 2,
    isolate: false,
    // Each file's temporary folders are removed once its tests have ended (test/temp-dirs.ts).
    setupFiles: ['test/setup.ts'],
    // ...on a memory file system where there is one (test/memory-temp.ts).
    env: memoryTempEnv(),
    // Sources transformed once are kept on disk (node_modules/.experimental-vitest-cache, keyed by
    // each file's content and the configuration) for the next run: a run after a change transforms
    // what changed. 3 s of the 25 s unit and command loop on this machine.
    experimental: { fsModuleCache: true },
    include: testFiles(SUITE.flatMap((part) => PARTS[part])),
  },
});
