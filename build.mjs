// @ts-check
// Bundles the CLI into dist/ with esbuild. Start-up time is dominated by loading and compiling
// code: the CLI is one CommonJS file that the launcher compiles with a V8 code cache, the HTTP
// client's undici another, the libraries only some commands use are files of their own, and
// the sandbox is built apart.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  appendFileSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { CODE_CACHED, exportNames, VENDOR, vendorFile } from './scripts/vendor.mjs';

const { version } = JSON.parse(readFileSync('package.json', 'utf8'));

// Modules that bundled libraries load at start-up for features edp never uses, each replaced
// by a stand-in: commander's executable subcommands (child_process), undici's HTTP/2 client
// (edp never negotiates HTTP/2), its FormData body encoder, its use of node:assert and
// node:http, and chalk's detection of the terminal's colours. Measured in bench/startup.mjs;
// everything else loads as usual.
const UNUSED_BUILTINS = [
  // undici's HTTP/2 client, whole, and the fetch body encoder (FormData request bodies): edp
  // sends JSON text only and never negotiates HTTP/2.
  {
    module: './client-h2.js',
    importer: /undici[\\/]lib[\\/]dispatcher[\\/]client\.js$/,
    stub: "module.exports = () => { throw new Error('HTTP/2 is not supported'); };",
  },
  {
    module: '../web/fetch/body.js',
    importer: /undici[\\/]lib[\\/]dispatcher[\\/]client-h1\.js$/,
    stub: "module.exports = { extractBody() { throw new Error('FormData bodies are not supported'); } };",
  },
  // undici checks its own invariants with assert(value) and nothing else of node:assert, which
  // costs ~2 ms to load: the stand-in throws the same ERR_ASSERTION error.
  {
    module: 'node:assert',
    importer: /undici[\\/]lib[\\/]/,
    stub: "module.exports = (value, message) => { if (!value) throw Object.assign(new Error(message ?? 'assertion failed'), { code: 'ERR_ASSERTION' }); };",
  },
  // undici reads two things of node:http, which loads Node's whole HTTP server and client
  // (~1.5 ms): the default header size limit (Node's, 16 KiB: edp passes no Node options) and
  // IncomingMessage, to detach a socket when destroying such a stream as a request body
  // (edp's bodies are strings).
  {
    module: 'node:http',
    importer: /undici[\\/]lib[\\/](dispatcher[\\/]client|core[\\/]util)\.js$/,
    stub: 'module.exports = { maxHeaderSize: 16384, IncomingMessage: class IncomingMessage {} };',
  },
  { module: 'node:child_process', importer: /commander[\\/]lib[\\/]command\.js$/, stub: 'module.exports = {};' },
  // conf validates its store with ajv only when given a schema (its `schema`, `rootSchema` or
  // `ajvOptions` option), which edp never gives (src/config/store.ts): ajv and its formats,
  // ~150 KB that conf imports at load, are left out. The stand-ins throw if conf ever
  // constructs them, and the build checks below that a store is written and read back
  // without touching them.
  {
    module: 'ajv/dist/2020.js',
    importer: /conf[\\/]dist[\\/]source[\\/]index\.js$/,
    stub: "exports.Ajv2020 = class { constructor() { throw new Error('ajv is not bundled with edp (conf without a schema)'); } };",
  },
  // conf compares the file's store with its defaults (assert.deepEqual, loose) to decide whether
  // to write them at construction; node:assert costs ~2 ms to load. JSON data compares the same
  // as text (conf copies the keys in order); the build checks below that a store made on an
  // existing file does not write it.
  {
    module: 'node:assert',
    importer: /conf[\\/]dist[\\/]source[\\/]index\.js$/,
    stub: "module.exports = { deepEqual(a, b) { if (JSON.stringify(a) !== JSON.stringify(b)) throw Object.assign(new Error('not equal'), { code: 'ERR_ASSERTION' }); } };",
  },
  // semver serves conf's migrations only (its `migrations` and `projectVersion` options),
  // which edp does not use: ~12 KB of code and most of conf's load time.
  {
    module: 'semver',
    importer: /conf[\\/]dist[\\/]source[\\/]index\.js$/,
    stub: "module.exports = new Proxy({}, { get() { throw new Error('semver is not bundled with edp (conf without migrations)'); } });",
  },
  // atomically (conf's atomic write) imports when-exit, which at load hooks SIGINT, SIGTERM and
  // a dozen other signals to delete its temporary files and then raises the signal again: that
  // would end a run at Ctrl-C before edp's own handler finishes (the notes an interrupted wait
  // or apply prints). The stand-in deletes them at a normal exit only, and hooks no signal.
  {
    module: 'when-exit',
    importer: /atomically[\\/]dist[\\/]utils[\\/]temp\.js$/,
    // (Imported by an ES module, a CommonJS stand-in's default is its module.exports.)
    stub: "module.exports = (callback) => { process.once('exit', callback); return () => process.off('exit', callback); };",
  },
  {
    module: 'ajv-formats',
    importer: /conf[\\/]dist[\\/]source[\\/]index\.js$/,
    stub: "module.exports = { default() { throw new Error('ajv-formats is not bundled with edp (conf without a schema)'); } };",
  },
  // edp creates every chalk instance with the colour level it decided (output/io.ts colorLevel):
  // chalk's own detection, which loads node:tty and node:os (~2.5 ms), is never consulted.
  {
    module: '#supports-color',
    importer: /chalk[\\/]source[\\/]index\.js$/,
    stub: 'module.exports = { stdout: false, stderr: false };',
  },
];
/** The stand-ins some build used: one never used means its dependency changed (checked below). */
/** @type {Set<(typeof UNUSED_BUILTINS)[number]>} */
const stubbed = new Set();
/** @param {string} text */
const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
/** @type {import('esbuild').Plugin} */
const unusedBuiltins = {
  name: 'unused-builtins',
  setup(b) {
    const filter = new RegExp(`^(${UNUSED_BUILTINS.map((u) => escapeRegExp(u.module)).join('|')})$`);
    b.onResolve({ filter }, (args) => {
      const entry = UNUSED_BUILTINS.find((u) => u.module === args.path && u.importer.test(args.importer));
      if (entry) stubbed.add(entry);
      // By its place in the list: two importers may each have their own stand-in for one module.
      return entry ? { path: String(UNUSED_BUILTINS.indexOf(entry)), namespace: 'unused-builtin' } : undefined;
    });
    b.onLoad({ filter: /.*/, namespace: 'unused-builtin' }, (args) => ({
      contents: UNUSED_BUILTINS[Number(args.path)]?.stub,
      loader: 'js',
    }));
  },
};

// What every build here shares: one minified CommonJS file for the oldest supported Node.
/** @type {import('esbuild').BuildOptions} */
const commonJs = { bundle: true, format: 'cjs', platform: 'node', target: 'node20', minify: true, logLevel: 'warning' };

// undici creates its WebAssembly HTTP parser on the first connection, with `lazyllhttp()`: the
// build has it do so through withBaselineWasm (src/http/baseline-wasm.ts), which keeps V8 from
// recompiling the parser on background threads that the process would wait for at exit (on
// Node 24 and 26; on Node 20 and 22 the launcher's --liftoff-only does).
const PARSER_CALL = 'llhttpInstance = lazyllhttp()';
/** @type {import('esbuild').Plugin} */
const baselineWasm = {
  name: 'baseline-wasm',
  setup(b) {
    b.onLoad({ filter: /undici[\\/]lib[\\/]dispatcher[\\/]client-h1\.js$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      if (source.split(PARSER_CALL).length !== 2) throw new Error(`${args.path}: expected one "${PARSER_CALL}"`);
      const helper = JSON.stringify(resolve('src/http/baseline-wasm.ts'));
      return {
        contents: source.replace(PARSER_CALL, `llhttpInstance = require(${helper}).withBaselineWasm(lazyllhttp)`),
        loader: 'js',
      };
    });
  },
};

// The API client's undici, as one CommonJS file: loaded with a V8 code cache (src/http/undici.ts).
const UNDICI_CJS = 'undici.cjs';

rmSync('dist', { recursive: true, force: true });
await build({
  entryPoints: { undici: 'src/http/undici-bundle.ts' },
  outfile: `dist/${UNDICI_CJS}`,
  ...commonJs,
  plugins: [unusedBuiltins, baselineWasm],
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
  plugins: [unusedBuiltins, separateFiles],
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
    // conf's ajv is left out (UNUSED_BUILTINS); the other libraries are bundled whole.
    plugins: name === 'conf' ? [unusedBuiltins] : [],
  });
}

// conf as bundled, with ajv left out: a store written and read back, with edp's options, must
// never reach the stand-ins; if a new conf builds its validator without a schema, this fails.
{
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'].map((s) => process.listenerCount(s));
  const { default: Conf } = (await import(resolve(`dist/${vendorFile('conf')}`))).default;
  if (['SIGINT', 'SIGTERM', 'SIGHUP'].some((s, i) => process.listenerCount(s) !== signals[i]))
    throw new Error(
      'conf as bundled hooks a signal (when-exit is bundled again?): it would cut short the Ctrl-C of edp',
    );
  const dir = mkdtempSync(join(tmpdir(), 'edp-build-conf-'));
  try {
    const options = { cwd: dir, configName: 'config', configFileMode: 0o600, clearInvalidConfig: false };
    const store = new Conf(options);
    store.store = { profiles: { default: { workspace: '101' } } };
    const file = join(dir, 'config.json');
    const back = JSON.parse(readFileSync(file, 'utf8'));
    if (back.profiles?.default?.workspace !== '101') throw new Error('conf as bundled did not write its store');
    // A store made on a file that is there writes nothing (edp writes only under its lock).
    writeFileSync(file, '{"profiles": {"a": {"workspace": "7"}}, "tokens": {}}');
    const before = statSync(file).mtimeMs;
    new Conf(options);
    if (statSync(file).mtimeMs !== before || !readFileSync(file, 'utf8').startsWith('{"profiles": {"a"'))
      throw new Error('conf as bundled wrote the file when its store was made');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// Each stand-in rests on an assumption about a dependency (this module imports that one, for
// that feature): one that no build used means the dependency no longer imports it from there,
// and the assumption must be looked at again.
const unused = UNUSED_BUILTINS.filter((u) => !stubbed.has(u));
if (unused.length > 0)
  throw new Error(
    `stand-ins no build used (the dependency changed; review UNUSED_BUILTINS): ${unused.map((u) => `${u.module} from ${u.importer}`).join(', ')}`,
  );

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

// Its ES module entry, the one the README documents: `import { startSandbox } from 'edp/dist/sandbox.js'`.
writeFileSync('dist/sandbox.js', "export * from './sandbox.cjs';\n");

// jq-web as shipped: its CommonJS runner (as .cjs: the package is ESM), its wasm and licence.
mkdirSync('dist/vendor/jq-web', { recursive: true });
copyFileSync('node_modules/jq-web/jq.js', 'dist/vendor/jq-web/jq.cjs');
copyFileSync('node_modules/jq-web/jq.wasm', 'dist/vendor/jq-web/jq.wasm');
copyFileSync('node_modules/jq-web/LICENSE', 'dist/vendor/jq-web/LICENSE');

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
