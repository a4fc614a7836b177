// @ts-check
// `npm run manual` writes the manual (docs/commands/*.md, man/*.1) and package.json's `man` list
// from the command tree; `npm run manual -- --check` writes nothing and exits 1, naming each file,
// when they are not what the tree gives. The generator (scripts/manual/) is TypeScript that imports
// the command tree from src/: esbuild bundles it with the sources it reaches (libraries stay
// imports) into one ES module under node_modules/.cache/edp, which this imports. So the manual is
// the sources' own, with no build of dist/ first.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// A file of this run's own, removed once loaded, so that two runs at once never meet.
const outfile = join(root, `node_modules/.cache/edp/manual-${process.pid}.mjs`);
await build({
  entryPoints: [join(root, 'scripts/manual/run.ts')],
  outfile,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  logLevel: 'warning',
});
// Typed here rather than imported: tsconfig.scripts.json checks scripts, not the sources behind run.ts.
/** @type {{ runManual: (args: string[], root: string, streams: { out: (line: string) => void, err: (line: string) => void }) => Promise<number> }} */
const { runManual } = await import(pathToFileURL(outfile).href).finally(() => rmSync(outfile, { force: true }));
process.exitCode = await runManual(process.argv.slice(2), root, {
  out: (line) => console.log(line),
  err: (line) => console.error(line),
});
