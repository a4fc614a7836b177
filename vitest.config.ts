import { defineConfig } from 'vitest/config';

// Two cores here: files run in parallel in forked workers, each with its own sandbox on a free
// port and its own config folder. The suite is four projects, each runnable alone for a fast
// inner loop (npm run test:unit, test:cli, test:sandbox, test:e2e). e2e runs the built
// bin/edp.js: `npm test` builds dist/ first, and those tests refuse a dist/ older than src/.
// The parity suite runs alone, against a target of its own: npm run test:parity.
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
          include: ['test/{accounts,api,build,config,contract,fleet,http,output,recipes,roles,util}/**/*.test.ts'],
        },
      },
      { extends: true, test: { name: 'cli', include: ['test/commands/**/*.test.ts'] } },
      { extends: true, test: { name: 'sandbox', include: ['test/sandbox/**/*.test.ts'] } },
      { extends: true, test: { name: 'e2e', include: ['test/e2e/**/*.test.ts'] } },
    ],
  },
});
