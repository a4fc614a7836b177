// @ts-check
// The libraries only some commands use, each bundled into one CommonJS file in dist/vendor that
// the CLI loads on first use (build.mjs). Listed once: the build and the built-binary test of
// every lazily loaded module (test/e2e/vendor.test.ts) both read this list.
export const VENDOR = ['zod', 'yaml', '@inquirer/prompts', 'ora', 'cli-table3', 'conf'];

/**
 * Vendored libraries loaded through the launcher's V8 code cache (src/util/commonjs.ts), like the
 * CLI itself: those a common run loads (conf: every run that caches a token writes the config).
 */
export const CODE_CACHED = ['conf'];

/** dist/vendor/<file> of a vendored library, relative to dist. */
/** @param {string} name */
export const vendorFile = (name) => `vendor/${name.replace('@', '').replace('/', '-')}.cjs`;

/**
 * The names a library exports to an ES module that imports it under Node (`await import(name)`),
 * `default` included: for an ES module package its own exports, for a CommonJS one
 * `module.exports` as `default` and the names Node's loader detects. The one interop rule of
 * dist/vendor: the CLI sees a vendored library exactly as Node and the tests see it.
 */
/**
 * @param {string} name
 * @returns {Promise<string[]>}
 */
export async function exportNames(name) {
  return Object.keys(await import(name))
    .filter((n) => n !== NODE_CJS_NAMESPACE)
    .sort();
}

/**
 * Node 23 and later also name a CommonJS module's `module.exports` as an export of that name
 * (the same value as `default`); it is not a name a program imports, and older Nodes lack it.
 */
export const NODE_CJS_NAMESPACE = 'module.exports';
