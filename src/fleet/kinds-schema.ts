import { z } from 'zod';
import { SCHEDULES } from '../contract/extraction.js';
import { idField } from '../recipes/schema.js';
import { idText } from '../util/json.js';

/**
 * The fleet file's extracts, destinations, accounts and tables sections (kinds-file.ts reads them):
 * loaded with the fleet file's schema, which passes its own workspace scope so that every
 * section's `workspaces` reads the same way.
 */

const text = z.string().trim().min(1, { error: 'must not be empty' });

/** Account selectors, as a recipe source names them: ids, titles, remote:ID, all-active. */
const selectors = z
  .array(z.union([z.string().trim().min(1), z.number().int().positive(), z.bigint().positive()]), {
    error: 'expected a list of accounts: ids, titles, remote:ID or all-active',
  })
  .min(1, { error: 'needs at least one account: an id, a title, remote:ID or all-active' })
  .transform((v) => v.map((x) => (typeof x === 'string' ? x : idText(x))));

/** The sections, each an optional list; `scope` is the fleet file's own `workspaces` schema. */
export function kindsShape<S extends z.ZodType>(scope: S) {
  return {
    extracts: z
      .array(
        z
          .object({
            template: z.union([idField, text], { error: 'expected an extraction template title or id' }),
            data_source: text,
            accounts: selectors,
            schedule: z.enum(SCHEDULES, { error: `expected one of ${SCHEDULES.join(', ')}` }).optional(),
            paused: z.boolean({ error: 'expected true or false' }).optional(),
            workspaces: scope.optional(),
          })
          .strict(),
      )
      .optional(),
    destinations: z
      .array(
        z
          .object({
            destination: text,
            title: text,
            // A value may be a string that `${…}` resolves, a number or a boolean, as the service takes them.
            params: z.record(z.string(), z.unknown()).default({}),
            workspaces: scope.optional(),
          })
          .strict(),
      )
      .optional(),
    accounts: z
      .array(
        z
          .object({
            data_source: text,
            enabled: z.array(z.union([z.string().trim().min(1), z.number().int().positive()]), {
              error: 'expected a list of accounts: all-active, remote:ID, ids or titles (empty: none)',
            }),
            workspaces: scope.optional(),
          })
          .strict(),
      )
      .optional(),
    tables: z
      .array(
        z
          .object({
            table: z.union([idField, text], { error: 'expected a data table title or id' }),
            selected_fields: z.array(text),
            workspaces: scope.optional(),
          })
          .strict(),
      )
      .optional(),
  };
}
