// @ts-check
// `npm run manual` writes the manual (docs/commands/*.md, man/*.1) and package.json's `man` list
// from the command tree; `npm run manual -- --check` writes nothing and exits 1, naming each file,
// when they are not what the tree gives. The generator (scripts/manual/) is TypeScript that imports
// the command tree from src/, loaded from the sources (scripts/import-sources.mjs): so the manual is
// the sources' own, with no build of dist/ first.
import { importSources, root } from './import-sources.mjs';

// Typed here rather than imported: tsconfig.scripts.json checks scripts, not the sources behind run.ts.
/** @type {{ runManual: (args: string[], root: string, streams: { out: (line: string) => void, err: (line: string) => void }) => Promise<number> }} */
const { runManual } = /** @type {any} */ (await importSources('scripts/manual/run.ts'));
process.exitCode = await runManual(process.argv.slice(2), root, {
  out: (line) => console.log(line),
  err: (line) => console.error(line),
});
