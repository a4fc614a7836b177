// The examples' own vitest configuration: `npx vitest run --config examples/vitest.config.mjs`.
// Installed, edp is in node_modules, which vitest leaves to Node; here `edp/sandbox` is this
// package's own dist/, left to Node the same way rather than transformed.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { root: import.meta.dirname, include: ['*.test.ts'], server: { deps: { external: [/\/dist\//] } } },
});
