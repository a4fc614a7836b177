// Bundles the CLI into dist/ with esbuild. Start-up time is dominated by module loading, so the
// entry and everything `--help` needs go into one file, while heavy modules (HTTP client,
// prompts, tables, spinners, the sandbox) land in chunks that load only when a command uses them.
import { build } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';

const { version } = JSON.parse(readFileSync('package.json', 'utf8'));

rmSync('dist', { recursive: true, force: true });
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
  // Some bundled CommonJS dependencies call require() for Node built-ins.
  banner: { js: "import { createRequire as __edpCreateRequire } from 'node:module'; const require = __edpCreateRequire(import.meta.url);" },
  define: { __EDP_VERSION__: JSON.stringify(version) },
  logLevel: 'warning',
});
