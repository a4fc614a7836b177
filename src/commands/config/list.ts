import { SETTING_KEYS, type ResolvedSetting } from '../../config/settings.js';
import type { Context } from '../../context.js';
import type { ListOptions } from './command.js';
import { displayUrl } from '../../util/display-url.js';

/** `source` for a person: the flag or variable, `profile "NAME"`, or `default`. */
function sourceText(ctx: Context, s: ResolvedSetting): string {
  if (s.source === 'profile') return `profile "${ctx.settings.profile.value}"`;
  if (s.source === 'default') return s.value === undefined ? 'not set' : 'default';
  return s.source;
}

export function shown(s: ResolvedSetting): ResolvedSetting {
  return s.key === 'base_url' && s.value !== undefined ? { ...s, value: displayUrl(s.value) } : s;
}

export async function runList(_opts: ListOptions, ctx: Context): Promise<void> {
  // A password inside the base URL is never printed.
  const rows = SETTING_KEYS.map((key) => shown(ctx.settings.setting(key)));
  if (ctx.output.machine) {
    ctx.output.json(Object.fromEntries(rows.map((s) => [s.key, { value: s.value ?? null, source: s.source }])));
    return;
  }
  await ctx.output.list(rows, [
    { header: 'KEY', value: (s) => s.key },
    { header: 'VALUE', value: (s) => s.value ?? '' },
    { header: 'SOURCE', value: (s) => sourceText(ctx, s) },
  ]);
}
