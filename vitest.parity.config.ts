import { defineConfig } from 'vitest/config';
import { parseDuration } from './src/util/validate.js';

/** A check may wait EDP_PARITY_TIMEOUT for the service (a build, a delivery), then conclude. */
const waitMs = process.env.EDP_PARITY_TIMEOUT ? parseDuration(process.env.EDP_PARITY_TIMEOUT, 'EDP_PARITY_TIMEOUT') : 0;

const common = {
  testTimeout: 30_000 + 2 * waitMs,
  hookTimeout: 30_000,
  pool: 'forks',
  maxWorkers: 2,
} as const;

/**
 * The parity suite: the contract's black-box checks over HTTP only, against EDP_BASE_URL (the
 * real service) or, when it is unset, a fresh sandbox that the global setup starts (once, for
 * both groups below). The checks of `*.last.test.ts` take away what the others use (a deleted
 * connection cannot be made again through the API): they run after every other file has ended.
 */
export default defineConfig({
  test: {
    globalSetup: ['test/parity/setup.ts'],
    reporters: ['./test/parity/reporter.ts'],
    projects: [
      {
        test: {
          ...common,
          name: 'parity',
          include: ['test/parity/**/*.test.ts'],
          exclude: ['test/parity/**/*.last.test.ts'],
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          ...common,
          name: 'parity-last',
          include: ['test/parity/**/*.last.test.ts'],
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
