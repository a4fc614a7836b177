import { settingKey } from '../../config/settings.js';
import type { Context } from '../../context.js';
import type { UnsetOptions } from './command.js';

export async function runUnset(opts: UnsetOptions, ctx: Context): Promise<void> {
  const key = settingKey(opts.args[0]);
  let had = false;
  await ctx.config.updateProfile(ctx.settings.profile.value, (profile) => {
    had = (profile as Record<string, unknown>)[key] !== undefined;
    const next = { ...profile };
    delete (next as Record<string, unknown>)[key];
    // A profile left empty (it held only this setting, or did not exist) is not kept.
    return Object.keys(next).length === 0 ? undefined : next;
  });
  if (ctx.output.machine) ctx.output.json({ profile: ctx.settings.profile.value, key, removed: had });
  else
    ctx.output.success(
      had
        ? `Removed ${key} from profile "${ctx.settings.profile.value}"`
        : `Profile "${ctx.settings.profile.value}" had no ${key}`,
    );
}
