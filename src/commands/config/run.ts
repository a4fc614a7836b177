import { SETTINGS, SETTING_KEYS, settingKey, withSetting, type ResolvedSetting } from '../../config/settings.js';
import type { Context } from '../../context.js';

function resolved(ctx: Context, key: (typeof SETTING_KEYS)[number]): ResolvedSetting {
  return ctx.setting(key);
}

/** `source` for a person: the flag or variable, `profile "NAME"`, or `default`. */
function sourceText(ctx: Context, s: ResolvedSetting): string {
  if (s.source === 'profile') return `profile "${ctx.profileName}"`;
  if (s.source === 'default') return s.value === undefined ? 'not set' : 'default';
  return s.source;
}

export async function runGet(ctx: Context, [name]: unknown[]): Promise<number> {
  const key = settingKey(String(name));
  const s = resolved(ctx, key);
  if (ctx.output.machine) {
    ctx.output.json({ key, value: s.value ?? null, source: s.source });
    return 0;
  }
  if (s.value === undefined) {
    ctx.output.info(`${key} is not set: \`edp config set ${key} VALUE\` sets it for profile "${ctx.profileName}"`);
    return 0;
  }
  ctx.output.line(s.value);
  return 0;
}

export async function runSet(ctx: Context, [name, raw]: unknown[]): Promise<number> {
  const key = settingKey(String(name));
  const value = SETTINGS[key].check(String(raw), key);
  // The store's locked read-modify-write: a concurrent login or token write is never undone.
  await ctx.config.updateProfile(ctx.profileName, (profile) => withSetting(profile, key, value));
  if (ctx.output.machine) ctx.output.json({ profile: ctx.profileName, key, value });
  else ctx.output.success(`Set ${key} to ${value} in profile "${ctx.profileName}"`);
  const winner = ctx.setting(key);
  if (winner.source !== 'profile') ctx.output.warn(`${winner.source} is set and wins over the profile in this shell`);
  return 0;
}

export async function runUnset(ctx: Context, [name]: unknown[]): Promise<number> {
  const key = settingKey(String(name));
  let had = false;
  await ctx.config.updateProfile(ctx.profileName, (profile) => {
    had = (profile as Record<string, unknown>)[key] !== undefined;
    const next = { ...profile };
    delete (next as Record<string, unknown>)[key];
    // A profile left empty (it held only this setting, or did not exist) is not kept.
    return Object.keys(next).length === 0 ? undefined : next;
  });
  if (ctx.output.machine) ctx.output.json({ profile: ctx.profileName, key, removed: had });
  else ctx.output.success(had ? `Removed ${key} from profile "${ctx.profileName}"` : `Profile "${ctx.profileName}" had no ${key}`);
  return 0;
}

export async function runList(ctx: Context): Promise<number> {
  const rows = SETTING_KEYS.map((key) => resolved(ctx, key));
  if (ctx.output.machine) {
    ctx.output.json(Object.fromEntries(rows.map((s) => [s.key, { value: s.value ?? null, source: s.source }])));
    return 0;
  }
  await ctx.output.list(rows, [
    { header: 'KEY', value: (s) => s.key },
    { header: 'VALUE', value: (s) => s.value ?? '' },
    { header: 'SOURCE', value: (s) => sourceText(ctx, s) },
  ]);
  return 0;
}
