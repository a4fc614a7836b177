import { z } from 'zod';
import { MAX_CONCURRENCY } from '../config/defaults.js';
import { idText } from '../util/json.js';
import { splitList } from './configuration.js';
import { dateField, idField, scopeError } from './schema.js';

/** The deploy spec's schema (see spec.ts); loaded only when `--file` is given, zod with it. */

const selectorList = z
  .union([z.string(), z.array(z.union([z.string().min(1), z.number().int().positive(), z.bigint().positive()]))])
  .transform((v) => (typeof v === 'string' ? splitList(v) : v.map((x) => idText(x))))
  .refine((v) => v.length > 0, { error: 'needs at least one account: an id, a title, remote:ID or all-active' });

/** The spec file (YAML or JSON). Unknown keys are refused, so that a typo does not silently deploy less. */
export const specFile = z
  .object({
    template: z.union([idField, z.string().min(1)], { error: 'expected a template id or name' }),
    title: z.string().trim().min(1).max(255).optional(),
    sync_from_date: dateField.optional(),
    workspaces: z.union([z.literal('all'), z.array(idField).min(1)], { error: scopeError }).optional(),
    concurrency: z.number().int().min(1).max(MAX_CONCURRENCY).optional(),
    sources: z
      .array(
        z
          .object({
            data_source: z.string().min(1),
            connection: idField.optional(),
            accounts: selectorList,
          })
          .strict(),
      )
      .min(1, { error: 'needs at least one data source' }),
  })
  .strict();

export type SpecDocument = z.output<typeof specFile>;

/** The spec's schema as `readValidDocument` takes it (unknown keys get the nearest known key there). */
export const deploySpec = specFile;
