import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The parity suite runs alone, against a target of its own: npm run test:parity (vitest.parity.config.ts).
    exclude: [...configDefaults.exclude, 'test/parity/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Two cores here: files run in parallel in forked workers, each with its own sandbox on a
    // free port and its own config folder. test/e2e runs the built bin/edp.js: `npm test`
    // builds dist/ first.
    pool: 'forks',
    maxWorkers: 2,
  },
});
