import { defineConfig } from 'vitest/config';

/**
 * The parity suite: the contract's black-box checks over HTTP only, against EDP_BASE_URL (the
 * real service) or, when it is unset, a fresh sandbox that the global setup starts.
 */
export default defineConfig({
  test: {
    include: ['test/parity/**/*.test.ts'],
    globalSetup: ['test/parity/setup.ts'],
    reporters: ['./test/parity/reporter.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
