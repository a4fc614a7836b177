// @ts-check
// A module of src/ (or a script that imports src/) loaded from its TypeScript, with no build of
// dist/ first: esbuild bundles it with the sources it reaches (libraries stay imports) into one ES
// module under node_modules/.cache/edp, a file of this run's own (two runs at once never meet),
// removed once loaded. Used by scripts/manual.mjs and scripts/fleet-schema.mjs.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The exports of `entry` (a path from the repository's root).
 * @param {string} entry
 * @returns {Promise<Record<string, unknown>>}
 */
export async function importSources(entry) {
  const outfile = join(root, `node_modules/.cache/edp/${basename(entry).replace(/\.ts$/, '')}-${process.pid}.mjs`);
  await build({
    entryPoints: [join(root, entry)],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
  });
  return import(pathToFileURL(outfile).href).finally(() => rmSync(outfile, { force: true }));
}
