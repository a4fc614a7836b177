/**
 * The address of the fleet file's JSON Schema (docs/fleet.schema.json, generated from schema.ts by
 * `node scripts/fleet-schema.mjs`): its `$id`, and what the header of an `edp export` names for
 * editors (`# yaml-language-server: $schema=…`). Kept apart from the schema so that export loads no zod.
 */
export const FLEET_SCHEMA_URL = 'https://edp.invalid/schemas/fleet.schema.json';
