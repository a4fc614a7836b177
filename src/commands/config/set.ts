import { SETTINGS, settingKey, withSetting } from '../../config/settings.js';
import type { Context } from '../../context.js';
import type { SetOptions } from './command.js';

export async function runSet(opts: SetOptions, ctx: Context): Promise<void> {
  const [name, raw] = opts.args;
  const key = settingKey(name);
  const value = SETTINGS[key].check(raw, key);
  // The store's locked read-modify-write: a concurrent login or token write is never undone.
  await ctx.config.updateProfile(ctx.settings.profile.value, (profile) => withSetting(profile, key, value));
  if (ctx.output.machine) ctx.output.json({ profile: ctx.settings.profile.value, key, value });
  else ctx.output.success(`Set ${key} to ${value} in profile "${ctx.settings.profile.value}"`);
  const winner = ctx.settings.setting(key);
  if (winner.source !== 'profile') ctx.output.warn(`${winner.source} is set and wins over the profile in this shell`);
}
