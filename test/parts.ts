/**
 * The parts of the suite, as folders of test/: `npm test` runs them all as one vitest project
 * (vitest.config.ts); npm run test:unit, test:cli, test:fast, test:sandbox and test:e2e give
 * vitest a part's folders as filters (test/build/test-parts.test.ts holds them to these).
 */
export const PARTS = {
  unit: ['accounts', 'api', 'build', 'config', 'contract', 'fleet', 'http', 'output', 'util'],
  cli: ['commands'],
  sandbox: ['sandbox'],
  /** the built command line: those tests refuse a dist/ older than src/ */
  e2e: ['e2e'],
};

/** The test files of the given folders of test/. */
export const testFiles = (folders: string[]): string[] => folders.map((f) => `test/${f}/**/*.test.ts`);
