import { z } from 'zod';
import { parseDate } from '../../util/validate.js';

/** A `--settings-file` document: the contract's `template_settings` keys, each optional. */

const names = z.array(z.string({ error: 'must be a name' }).min(1, { error: 'must be a name' }), {
  error: 'must be a list of names',
});

/** A date as YYYY-MM-DD (checked by parseDate, the one date validator), or null to clear it. */
const date = z
  .string({ error: 'must be a date as YYYY-MM-DD, or null' })
  .superRefine((value, ctx) => {
    try {
      parseDate(value, '');
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: err instanceof Error ? err.message.trim() : String(err) });
    }
  })
  .nullable();

export const templateSettingsSchema = z.strictObject(
  {
    fields: names.optional(),
    additional_params: z.record(z.string(), z.unknown(), { error: 'must be an object' }).optional(),
    dynamic_fields: names.optional(),
    custom_filters: z.array(z.unknown(), { error: 'must be a list' }).optional(),
    sync_historical_data: date.optional(),
  },
  // Unknown keys are named with the known ones and the nearest (util/document.ts).
  { error: 'must be an object of template settings' },
);
