import { forgetIdentity, profileIdentity } from '../../config/token-cache.js';
import type { Context } from '../../context.js';
import type { LogoutOptions } from './command.js';

export async function runLogout(_opts: LogoutOptions, ctx: Context): Promise<void> {
  let had = false;
  await ctx.config.update((config) => {
    const profile = config.profiles?.[ctx.settings.profile.value];
    had = !!profile;
    if (!profile) return;
    if (config.token_key_salt && profile.username && profile.password) {
      forgetIdentity(config, profileIdentity(config.token_key_salt, profile.username, profile.password));
    }
    delete config.profiles![ctx.settings.profile.value];
  });
  ctx.output.success(
    had
      ? `Removed the credentials and tokens of profile "${ctx.settings.profile.value}"`
      : `Profile "${ctx.settings.profile.value}" held no credentials`,
  );
}
