// @ts-check
// `node scripts/fleet-schema.mjs` writes docs/fleet.schema.json, the fleet file's JSON Schema, from
// its zod schema (src/fleet/schema-json.ts); `--check` writes nothing and exits 1 when the file is
// not what the schema gives (test/fleet/schema-json.test.ts fails then too). The schema is
// loaded from the sources (scripts/import-sources.mjs).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { format } from 'prettier';
import { importSources, root } from './import-sources.mjs';

const target = join(root, 'docs/fleet.schema.json');
/** @type {{ fleetJsonSchema: () => Record<string, unknown> }} */
const { fleetJsonSchema } = /** @type {any} */ (await importSources('src/fleet/schema-json.ts'));
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
