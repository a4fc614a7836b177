import { fileURLToPath } from 'node:url';
import { defineConfig, mergeConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import base from './vitest.config.js';

// The whole suite, with the command tests (the `cli` project) run against the built bundle
// (dist/cli.cjs, which test/bundle/cli.ts gives them in place of src/cli.ts) rather than the
// sources: the bundle's stand-ins and patches of its dependencies meet every command's tests.
// CI runs the suite this way under one Node (.ci/run); `npm run build` first.
const bundleEntry = fileURLToPath(new URL('./test/bundle/cli.ts', import.meta.url));
const projects = (base.test?.projects ?? []) as TestProjectInlineConfiguration[];

export default mergeConfig(
  { ...base, test: { ...base.test, projects: undefined } },
  defineConfig({
    test: {
      projects: projects.map((p) =>
        typeof p === 'object' && p.test?.name === 'cli'
          ? {
              ...p,
              test: { ...p.test, name: 'cli-bundle', env: { ...p.test?.env, EDP_TEST_BUNDLE: '1' } },
              resolve: { alias: [{ find: /^(?:\.\.\/)+src\/cli\.js$/, replacement: bundleEntry }] },
            }
          : p,
      ),
    },
  }),
);
