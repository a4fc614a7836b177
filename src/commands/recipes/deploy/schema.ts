import { z } from 'zod';
import { MAX_CONCURRENCY } from '../../../config/defaults.js';
import { didYouMean } from '../../../util/did-you-mean.js';
import { idText } from '../../../util/json.js';
import { splitList } from '../configuration.js';
import { dateField, idField } from '../schema.js';

/** The deploy spec's schema (see spec.ts); loaded only when `--file` is given, zod with it. */

const selectorList = z
  .union([z.string(), z.array(z.union([z.string().min(1), z.number().int().positive(), z.bigint().positive()]))])
  .transform((v) => (typeof v === 'string' ? splitList(v) : v.map((x) => idText(x))))
  .refine((v) => v.length > 0, { error: 'needs at least one account: an id, a title, remote:ID or all-active' });

/** The spec file (YAML or JSON). Unknown keys are refused, so that a typo does not silently deploy less. */
export const specFile = z
  .object({
    template: z.union([idField, z.string().min(1)]),
    title: z.string().trim().min(1).max(255).optional(),
    sync_from_date: dateField.optional(),
    workspaces: z.union([z.literal('all'), z.array(idField).min(1)]).optional(),
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

const SPEC_KEYS = Object.keys(specFile.shape);
const SOURCE_KEYS = ['data_source', 'connection', 'accounts'];

/** An unknown key of the spec names the closest known ones: `sourcs` → did you mean sources? */
function suggestKeys<I extends { code?: string; keys?: string[]; path: ReadonlyArray<PropertyKey>; message: string }>(
  issue: I,
): I {
  if (issue.code !== 'unrecognized_keys' || !issue.keys) return issue;
  const known = issue.path.length === 0 ? SPEC_KEYS : issue.path[0] === 'sources' ? SOURCE_KEYS : [];
  const hints = issue.keys.map((k) => didYouMean(k, known)).filter(Boolean);
  return hints.length === 0 ? issue : { ...issue, message: `${issue.message} (${hints.join('; ')})` };
}

/** The spec's schema as `readValidDocument` takes it, unknown keys named with the closest known ones. */
export const deploySpec = {
  safeParse(doc: unknown) {
    const result = specFile.safeParse(doc);
    return result.success
      ? result
      : { success: false as const, error: { issues: result.error.issues.map(suggestKeys) } };
  },
};
