import { defineConfig } from 'vitest/config';
import { parseDuration } from './src/util/validate.js';

/** A check may wait EDP_PARITY_TIMEOUT for the service (a build, a delivery), then conclude. */
const waitMs = process.env.EDP_PARITY_TIMEOUT ? parseDuration(process.env.EDP_PARITY_TIMEOUT, 'EDP_PARITY_TIMEOUT') : 0;

/**
 * The parity suite: the contract's black-box checks over HTTP only, against EDP_BASE_URL (the
 * real service) or, when it is unset, a fresh sandbox that the global setup starts.
 */
export default defineConfig({
  test: {
    include: ['test/parity/**/*.test.ts'],
    globalSetup: ['test/parity/setup.ts'],
    reporters: ['./test/parity/reporter.ts'],
    testTimeout: 30_000 + 2 * waitMs,
    hookTimeout: 30_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
