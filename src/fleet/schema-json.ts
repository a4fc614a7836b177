import { z } from 'zod';
import { fleetSchema } from './schema.js';
import { FLEET_SCHEMA_URL } from './schema-id.js';

/**
 * The fleet file's JSON Schema, from its zod schema (the one that checks every file read), for
 * editors: docs/fleet.schema.json is this, written by `node scripts/fleet-schema.mjs`, and a test
 * fails when the two differ. What a document may be as written (`io: 'input'`): an id is a
 * positive integer or its digits as a string.
 */
export function fleetJsonSchema(): Record<string, unknown> {
  const generated = z.toJSONSchema(fleetSchema, {
    io: 'input',
    unrepresentable: 'any',
    override: (ctx) => {
      const def = (ctx.zodSchema as { _zod?: { def?: { type?: string } } })._zod?.def;
      // The only custom type of the schema: an id (recipes/schema.ts, idField).
      if (def?.type === 'custom')
        Object.assign(ctx.jsonSchema, {
          anyOf: [
            { type: 'integer', minimum: 1 },
            { type: 'string', pattern: '^[1-9][0-9]*$' },
          ],
        });
    },
  }) as Record<string, unknown>;
  const { $schema, ...rest } = generated;
  return {
    $schema,
    $id: FLEET_SCHEMA_URL,
    title: 'edp fleet file',
    description:
      'The desired state of an agency: the file the plan and apply commands read and the export command writes (docs/guide.md, Fleet as code).',
    ...rest,
  };
}
