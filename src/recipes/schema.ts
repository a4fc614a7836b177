import { z } from 'zod';
import { isDate } from '../util/validate.js';
import { idText, LosslessNumber } from '../util/json.js';

/** The schemas of recipe `--file` documents; loaded only when a document is given, zod with it. */

/** An id in a file: a positive integer of any size, or its digits as a string. Becomes its digits. */
export const idField = z
  .custom<number | bigint | LosslessNumber | string>(
    (v) =>
      (typeof v === 'number' && Number.isInteger(v) && v > 0) ||
      (typeof v === 'bigint' && v > 0n) ||
      ((v instanceof LosslessNumber || typeof v === 'string') && /^[1-9]\d*$/.test(String(v))),
    { error: 'must be a positive integer id' },
  )
  .transform((v) => idText(v));

/** One message per mistake: a value that is not a date at all is not also said not to exist. */
export const dateField = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'must be a date as YYYY-MM-DD', abort: true })
  .refine(isDate, { error: 'must be a date that exists' });

/**
 * The message of a workspace scope that is neither "all" nor a list; a single id gets the list
 * it was meant to be (`workspaces: 101` → `[101], not 101`).
 */
export function scopeError(issue: { input?: unknown }): string {
  const input = issue.input;
  const id =
    input instanceof LosslessNumber || typeof input === 'number' || typeof input === 'string' ? String(input) : '';
  return /^[1-9]\d*$/.test(id)
    ? `expected "all" or a list of workspace ids ([${id}], not ${id})`
    : 'expected "all" or a list of workspace ids';
}

/** `recipes configure --file`: the complete configuration the API takes. */
export const configurationFile = z.object({
  data_sources: z.array(z.string().min(1)),
  connections: z.array(
    z.object({
      connection_id: idField,
      connection_data_source: z.string().min(1),
      accounts: z.array(z.object({ id: idField })).min(1, { error: 'needs at least one account' }),
    }),
  ),
  sync_from_date: dateField.nullable().optional(),
});

export type ConfigurationDocument = z.output<typeof configurationFile>;
