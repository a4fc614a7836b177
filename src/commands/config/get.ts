import { suggest } from '../../util/suggest.js';
import { settingKey } from '../../config/settings.js';
import type { Context } from '../../context.js';
import type { GetOptions } from './command.js';
import { shown } from './list.js';

export async function runGet(opts: GetOptions, ctx: Context): Promise<void> {
  const key = settingKey(opts.args[0]);
  const s = shown(ctx.settings.setting(key));
  if (ctx.output.machine) {
    ctx.output.json({ key, value: s.value ?? null, source: s.source });
    return;
  }
  if (s.value === undefined) {
    ctx.output.info(
      `${key} is not set: \`${suggest(['config', 'set', key, 'VALUE'])}\` sets it for profile "${ctx.settings.profile.value}"`,
    );
    return;
  }
  ctx.output.line(s.value);
}
