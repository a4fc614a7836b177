import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { PARTS, testFiles } from './test/parts.js';
import base from './vitest.config.js';

// The whole suite, with the command tests (test/commands) run against the built bundle
// (dist/cli.cjs, which test/bundle/cli.ts gives them in place of src/cli.ts) rather than the
// sources: the bundle's stand-ins and patches of its dependencies meet every command's tests.
// The other tests run from the sources as in vitest.config.ts. CI runs the suite this way under
// one Node (.ci/run); `npm run build` first.
const bundleEntry = fileURLToPath(new URL('./test/bundle/cli.ts', import.meta.url));
const { include: _all, ...common } = base.test!;

export default defineConfig({
  test: {
    projects: [
      {
        test: { ...common, name: 'cli-bundle', include: testFiles(PARTS.cli), env: { EDP_TEST_BUNDLE: '1' } },
        resolve: { alias: [{ find: /^(?:\.\.\/)+src\/cli\.js$/, replacement: bundleEntry }] },
      },
      {
        test: { ...common, name: 'sources', include: testFiles([...PARTS.unit, ...PARTS.sandbox, ...PARTS.e2e]) },
      },
    ],
  },
});
