import { defineConfig } from 'vitest/config';

// Two cores here: files run in parallel in forked workers, each with its own sandbox on a free
// port and its own config folder. The suite is four projects, each runnable alone for a fast
// inner loop (npm run test:unit, test:cli, test:sandbox, test:e2e). e2e runs the built
// bin/edp.js: `npm test` builds dist/ first, and those tests refuse a dist/ older than src/.
// The parity suite runs alone, against a target of its own: npm run test:parity.
// Every project shares each worker's modules across files (isolate: false): importing the CLI
// and the sandbox from the sources once per worker instead of once per file is most of the
// in-process projects' time, and the built-tool tests (e2e) import the sandbox and the test
// helpers the same way. It holds because no test mocks a module or leaves global state behind
// (every test has its own sandbox, config folder and io); the shuffled run in CI keeps it honest.
export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          isolate: false,
          include: ['test/{accounts,api,build,config,contract,fleet,http,output,recipes,roles,util}/**/*.test.ts'],
        },
      },
      { extends: true, test: { name: 'cli', isolate: false, include: ['test/commands/**/*.test.ts'] } },
      { extends: true, test: { name: 'sandbox', isolate: false, include: ['test/sandbox/**/*.test.ts'] } },
      { extends: true, test: { name: 'e2e', isolate: false, include: ['test/e2e/**/*.test.ts'] } },
    ],
  },
});
