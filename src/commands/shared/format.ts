import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { choiceError } from '../../util/validate.js';

/**
 * A verb's `--format` (`plan`, `freshness`), checked before anything is read: one of `formats`,
 * any case; without it, `json` under --json and `text` otherwise. `--json` is the json format,
 * so a format other than json with it asks for two outputs (exit 2).
 */
export function formatOption<F extends string>(
  value: string | undefined,
  formats: readonly F[],
  ctx: Context,
  defaults: { text: F; json: F },
): F {
  if (value === undefined) return ctx.output.machine ? defaults.json : defaults.text;
  const format = formats.find((f) => f === value.trim().toLowerCase());
  if (format === undefined) throw choiceError(value, formats, '--format');
  if (ctx.output.machine && format !== defaults.json)
    throw new UsageError(`--format ${format} and --json ask for two outputs; pass one`);
  return format;
}
