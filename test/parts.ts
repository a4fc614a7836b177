/**
 * The parts of the suite, as folders of test/: `npm test` runs the suite's parts as one vitest
 * project (vitest.config.ts); npm run test:unit, test:cli, test:fast, test:sandbox and test:e2e
 * give vitest a part's folders as filters (test/build/test-parts.test.ts holds them to these).
 * The outside tools' part runs on its own (npm run test:tools, vitest.tools.config.ts); CI runs
 * both.
 */
export const PARTS = {
  unit: ['accounts', 'api', 'build', 'config', 'contract', 'fleet', 'http', 'output', 'util'],
  cli: ['commands'],
  sandbox: ['sandbox'],
  /** the built command line: those tests refuse a dist/ older than src/ */
  e2e: ['e2e'],
  /**
   * what tools nobody here wrote judge, whatever the Node: Chromium on the sandbox's pages, real
   * bash, zsh and fish on the completion scripts, Prism, Spectral and ajv on the OpenAPI document,
   * the CI recipes' and the guide's lines in a shell, dependency-cruiser on the imports. Slow (Chromium alone
   * takes 20 s), and their subject changes seldom: `npm test` leaves them to npm run test:tools.
   */
  tools: ['tools'],
};

/** The parts `npm test` runs. */
export const SUITE: Array<keyof typeof PARTS> = ['unit', 'cli', 'sandbox', 'e2e'];

/** The test files of the given folders of test/. */
export const testFiles = (folders: string[]): string[] => folders.map((f) => `test/${f}/**/*.test.ts`);
