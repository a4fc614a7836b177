// Bundles the CLI into dist/ with esbuild. Start-up time is dominated by module loading, so the
// entry holds only what `--help` needs (commander and the command names); each command area,
// the HTTP client, prompts, tables, spinners and the sandbox are chunks loaded on use.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';

const { version } = JSON.parse(readFileSync('package.json', 'utf8'));

// Modules that bundled libraries load at start-up for features edp never uses, each replaced
// by a stand-in: commander's executable subcommands (child_process), undici's HTTP/2 client
// (edp never negotiates HTTP/2) and its FormData body encoder. Measured in bench/startup.mjs;
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
  { module: 'node:child_process', importer: /commander[\\/]lib[\\/]command\.js$/, stub: 'module.exports = {};' },
];
const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const unusedBuiltins = {
  name: 'unused-builtins',
  setup(b) {
    const filter = new RegExp(`^(${UNUSED_BUILTINS.map((u) => escapeRegExp(u.module)).join('|')})$`);
    b.onResolve({ filter }, (args) => {
      const entry = UNUSED_BUILTINS.find((u) => u.module === args.path && u.importer.test(args.importer));
      return entry ? { path: entry.module, namespace: 'unused-builtin' } : undefined;
    });
    b.onLoad({ filter: /.*/, namespace: 'unused-builtin' }, (args) => ({
      contents: UNUSED_BUILTINS.find((u) => u.module === args.path).stub,
      loader: 'js',
    }));
  },
};

// The API client's undici, as one CommonJS file: loaded with a V8 code cache (src/http/undici.ts).
const UNDICI_CJS = 'undici.cjs';

rmSync('dist', { recursive: true, force: true });
await build({
  entryPoints: { undici: 'src/http/undici-bundle.ts' },
  outfile: `dist/${UNDICI_CJS}`,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  minify: true,
  plugins: [unusedBuiltins],
  logLevel: 'warning',
});
await build({
  entryPoints: { cli: 'src/cli.ts', sandbox: 'src/sandbox/index.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  minify: true,
  sourcemap: 'linked',
  chunkNames: 'chunks/[name]-[hash]',
  plugins: [unusedBuiltins],
  // jq-web (--jq) reads its jq.wasm from beside its own file: it is copied whole to
  // dist/vendor/jq-web below rather than bundled, and loaded only with --jq.
  external: ['jq-web'],
  // Some bundled CommonJS dependencies call require() for Node built-ins.
  banner: {
    js: "import { createRequire as __edpCreateRequire } from 'node:module'; const require = __edpCreateRequire(import.meta.url);",
  },
  define: { __EDP_VERSION__: JSON.stringify(version), __EDP_UNDICI_CJS__: JSON.stringify(UNDICI_CJS) },
  logLevel: 'warning',
});

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
