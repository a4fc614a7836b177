// @ts-check
// Bundles the CLI into dist/ with esbuild. Start-up time is dominated by loading and compiling
// code: the CLI is one CommonJS file that the launcher compiles with a V8 code cache, the HTTP
// client's undici another, the libraries only some commands use are files of their own, and
// the sandbox is built apart.
import { build as esbuild } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import {
  baselineWasm,
  checkBundledConf,
  checkPinned,
  escapeRegExp,
  installedVersion,
  standIns,
} from './scripts/bundle-shims.mjs';
import { BUNDLE_INPUTS, thirdPartyNotices } from './scripts/third-party-notices.mjs';
import { CODE_CACHED, exportNames, VENDOR, vendorFile } from './scripts/vendor.mjs';

const { version } = JSON.parse(readFileSync('package.json', 'utf8'));

// The stand-ins and patches of bundled dependencies, each with the check of what it rests on,
// are in scripts/bundle-shims.mjs; undici, whose internals edp imports, must be the pinned version.
checkPinned('undici', JSON.parse(readFileSync('package.json', 'utf8')), installedVersion('undici'));
const shims = standIns();

// Every build's metafile (esbuild's account of the inputs of each output file), for the
// third-party notices of what the bundle holds.
/** @type {import('esbuild').Metafile[]} */
const metafiles = [];
/** @param {import('esbuild').BuildOptions} options */
async function build(options) {
  const result = await esbuild({ ...options, metafile: true });
  if (result.metafile) metafiles.push(result.metafile);
  return result;
}

// What every build here shares: one minified CommonJS file for the oldest supported Node.
/** @type {import('esbuild').BuildOptions} */
const commonJs = { bundle: true, format: 'cjs', platform: 'node', target: 'node20', minify: true, logLevel: 'warning' };

// The API client's undici, as one CommonJS file: loaded with a V8 code cache (src/http/undici.ts).
const UNDICI_CJS = 'undici.cjs';

rmSync('dist', { recursive: true, force: true });
await build({
  entryPoints: { undici: 'src/http/undici-bundle.ts' },
  outfile: `dist/${UNDICI_CJS}`,
  ...commonJs,
  plugins: [shims.plugin, baselineWasm],
});

// The CLI and the sandbox: entry files in dist, with their source maps, built from code written
// as ES modules (`import.meta.url` is the file's own URL), with the version and `define`.
/**
 * @param {Record<string, string>} [define]
 * @returns {import('esbuild').BuildOptions}
 */
const entryFile = (define = {}) => ({
  outExtension: { '.js': '.cjs' },
  outdir: 'dist',
  ...commonJs,
  sourcemap: 'linked',
  define: { 'import.meta.url': '__edpModuleUrl', __EDP_VERSION__: JSON.stringify(version), ...define },
  banner: { js: "const __edpModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
});

// The libraries only some commands use (document checks, YAML, prompts, spinners, tables), each
// one CommonJS file in dist/vendor that the CLI requires on first use: the CLI's own file, which
// every run reads and deserializes from its code cache, stays small. One interop rule holds on
// both sides (scripts/vendor.mjs): a vendor file exports what `await import(name)` gives under
// Node, and the CLI's `import(name)` is a module that re-exports those names from it as they are.
// esbuild's own interop would not do: an ES module importing an external CommonJS file gets its
// module.exports as `default` (Node's rule for CommonJS), which is a vendor file's whole namespace.
/** @type {Record<string, string[]>} */
const vendorExports = Object.fromEntries(await Promise.all(VENDOR.map(async (n) => [n, await exportNames(n)])));
/** The vendor libraries and the sandbox stay files of their own beside the CLI's. */
/** @type {import('esbuild').Plugin} */
const separateFiles = {
  name: 'separate-files',
  setup(b) {
    const filter = new RegExp(`^(${VENDOR.map(escapeRegExp).join('|')})$`);
    b.onResolve({ filter }, (args) => ({ path: args.path, namespace: 'vendor' }));
    b.onLoad({ filter: /.*/, namespace: 'vendor' }, (args) => {
      // Each name through a local binding: export names may be reserved words (zod's `enum`).
      const names = vendorExports[args.path];
      return {
        contents: [
          CODE_CACHED.includes(args.path)
            ? `const vendored = require(${JSON.stringify(resolve('src/util/commonjs.ts'))}).requireBuilt(require.resolve(${JSON.stringify(`./${vendorFile(args.path)}`)}), ${JSON.stringify(args.path)});`
            : `const vendored = require(${JSON.stringify(`./${vendorFile(args.path)}`)});`,
          `const { ${names.map((n, i) => `${JSON.stringify(n)}: v${i}`).join(', ')} } = vendored;`,
          `export { ${names.map((n, i) => `v${i} as ${n}`).join(', ')} };`,
        ].join('\n'),
        loader: 'js',
        resolveDir: resolve('dist'),
      };
    });
    b.onResolve({ filter: /^\.\/vendor\//, namespace: 'vendor' }, (args) => ({ path: args.path, external: true }));
    // `edp sandbox` loads the sandbox, built on its own (dist/sandbox.cjs).
    b.onResolve({ filter: /[\\/]sandbox[\\/]index\.js$/ }, (args) =>
      /[\\/]commands[\\/]sandbox[\\/]/.test(args.importer) ? { path: './sandbox.cjs', external: true } : undefined,
    );
  },
};

// The CLI as one CommonJS file, which the launcher compiles with a V8 code cache (bin/edp.js):
// with the cache, a run deserializes the code the previous runs compiled instead of resolving,
// parsing and compiling dozens of ES modules. Modules a command loads on use stay lazy inside it.
await build({
  entryPoints: { cli: 'src/cli.ts' },
  ...entryFile({ __EDP_UNDICI_CJS__: JSON.stringify(UNDICI_CJS) }),
  plugins: [shims.plugin, separateFiles],
  // import() of the files beside it becomes require(): the launcher compiles the CLI as a script,
  // which has no module loader of its own for import().
  supported: { 'dynamic-import': false },
  // jq-web (--jq) reads its jq.wasm from beside its own file: it is copied whole to
  // dist/vendor/jq-web below rather than bundled, and loaded only with --jq.
  external: ['jq-web'],
});
for (const name of VENDOR) {
  const names = vendorExports[name];
  await build({
    // An ES module entry (.mjs: Node's interop rule for a CommonJS package's default) that
    // exports exactly the names Node's import() gives, no more.
    stdin: {
      contents: `export { ${names.join(', ')} } from ${JSON.stringify(name)};`,
      resolveDir: resolve('.'),
      sourcefile: 'vendor-entry.mjs',
      loader: 'js',
    },
    outfile: `dist/${vendorFile(name)}`,
    ...commonJs,
    // conf's ajv is left out (scripts/bundle-shims.mjs); the other libraries are bundled whole.
    plugins: name === 'conf' ? [shims.plugin] : [],
  });
}

// What each stand-in rests on, in the sources they were built from; conf as bundled, run.
shims.verify();
await checkBundledConf(resolve(`dist/${vendorFile('conf')}`));

// The files the launcher compiles with a code cache end with a digest of their content, which
// names the cache (bin/edp.js): a cache is never used for another build, and a run computes no
// digest of its own.
for (const file of ['cli.cjs', UNDICI_CJS, ...CODE_CACHED.map(vendorFile)]) {
  const digest = createHash('sha256')
    .update(readFileSync(`dist/${file}`))
    .digest('hex')
    .slice(0, 16);
  appendFileSync(`dist/${file}`, `\n//# edpBuild=${digest}\n`);
}

// The sandbox, one CommonJS file: what `edp sandbox` requires, and the benches and the demo import.
await build({
  entryPoints: { sandbox: 'src/sandbox/index.ts' },
  ...entryFile(),
});

// Its ES module entry as the emulator's own (the benches and the demo import it), kept for the scripts
// that used it before `edp/sandbox`.
writeFileSync('dist/sandbox.js', "export * from './sandbox.cjs';\n");

// `import { startSandbox } from 'edp/sandbox'` (package.json's exports): the packaged sandbox of
// src/sandbox/public.ts, from the same file, and its hand-written types (types/sandbox.d.ts).
await build({
  stdin: {
    contents: "export { startPackagedSandbox as startSandbox } from './sandbox.cjs';",
    resolveDir: resolve('dist'),
    sourcefile: 'sandbox-entry.mjs',
    loader: 'js',
  },
  outfile: 'dist/sandbox.mjs',
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: ['./sandbox.cjs'],
  logLevel: 'warning',
});
copyFileSync('types/sandbox.d.ts', 'dist/sandbox.d.mts');

// jq-web as shipped: its CommonJS runner (as .cjs: the package is ESM), its wasm and licence.
mkdirSync('dist/vendor/jq-web', { recursive: true });
copyFileSync('node_modules/jq-web/jq.js', 'dist/vendor/jq-web/jq.cjs');
copyFileSync('node_modules/jq-web/jq.wasm', 'dist/vendor/jq-web/jq.wasm');
copyFileSync('node_modules/jq-web/LICENSE', 'dist/vendor/jq-web/LICENSE');

// The third-party notices: every package whose code the bundle holds (the builds' metafiles) and
// jq-web, copied whole, each with its licence text (scripts/third-party-notices.mjs). The
// packages are also listed apart, unshipped, for the test that holds the notices to them.
const notices = thirdPartyNotices(resolve('.'), metafiles, ['node_modules/jq-web']);
writeFileSync('dist/THIRD-PARTY-NOTICES.txt', notices.text);
mkdirSync(dirname(BUNDLE_INPUTS), { recursive: true });
writeFileSync(BUNDLE_INPUTS, `${JSON.stringify({ metafiles, copied: ['node_modules/jq-web'] })}\n`);

// `edp --help` as the CLI prints it off a terminal, for the launcher to print without loading
// the CLI (bin/edp.js). Rendered by the CLI just built (dist has no help.txt yet, so the
// launcher takes the CLI), with none of the user's settings in the environment.
const helpEnv = Object.fromEntries(
  Object.entries(process.env).filter(([k]) => !k.startsWith('EDP_') && !['NO_COLOR', 'FORCE_COLOR'].includes(k)),
);
const help = spawnSync(process.execPath, ['bin/edp.js', '--help'], { env: helpEnv, encoding: 'utf8' });
if (help.status !== 0 || !help.stdout.startsWith('Usage: edp')) {
  throw new Error(`edp --help failed while building (exit ${help.status}): ${help.stderr}`);
}
writeFileSync('dist/help.txt', help.stdout);
