// @ts-check
// `node scripts/fleet-schema.mjs` writes docs/fleet.schema.json, the fleet file's JSON Schema, from
// its zod schema (src/fleet/schema-json.ts); `--check` writes nothing and exits 1 when the file is
// not what the schema gives (test/fleet/schema-json.test.ts fails then too). As scripts/manual.mjs
// does, esbuild bundles the TypeScript with the sources it reaches into one module, imported here.
import { build } from 'esbuild';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { format } from 'prettier';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const target = join(root, 'docs/fleet.schema.json');
const outfile = join(root, `node_modules/.cache/edp/fleet-schema-${process.pid}.mjs`);
await build({
  entryPoints: [join(root, 'src/fleet/schema-json.ts')],
  outfile,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  logLevel: 'warning',
});
/** @type {{ fleetJsonSchema: () => Record<string, unknown> }} */
const { fleetJsonSchema } = await import(pathToFileURL(outfile).href).finally(() => rmSync(outfile, { force: true }));
const text = await format(JSON.stringify(fleetJsonSchema()), { parser: 'json', filepath: target });
if (process.argv.includes('--check')) {
  let now = '';
  try {
    now = readFileSync(target, 'utf8');
  } catch {
    // missing: stale
  }
  if (now !== text) {
    console.error('docs/fleet.schema.json is not what src/fleet/schema.ts gives: run node scripts/fleet-schema.mjs');
    process.exitCode = 1;
  }
} else writeFileSync(target, text);
