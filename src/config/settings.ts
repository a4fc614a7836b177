import { UsageError } from '../errors.js';
import { editDistance } from '../util/did-you-mean.js';
import { suggest } from '../util/suggest.js';
import { parseDuration, parseId, parsePositiveInt } from '../util/validate.js';
import {
  AUTO_CONCURRENCY,
  DEFAULT_POLL_INTERVAL,
  FLEET_CONCURRENCY_CAP,
  FLEET_READ_CONCURRENCY_CAP,
  MAX_CONCURRENCY,
} from './defaults.js';
import { DEFAULT_BASE_URL, type Profile } from './store.js';

/**
 * Per-profile settings (`edp config`): each has a flag, an environment variable, a value kept
 * in the profile and a built-in default, and is resolved in that order (docs/guide.md, Settings).
 */
export const SETTING_KEYS = ['workspace', 'base_url', 'concurrency', 'poll_interval'] as const;
export type SettingKey = (typeof SETTING_KEYS)[number];

export interface SettingSpec {
  key: SettingKey;
  flag: string;
  env: string;
  default: string | undefined;
  description: string;
  /** The value as stored and shown, checked; `what` names where it came from. Throws UsageError. */
  check(value: string, what: string): string;
}

function checkUrl(value: string, what: string): string {
  let u: URL | undefined;
  try {
    u = new URL(value);
  } catch {
    // reported below
  }
  if (!u || (u.protocol !== 'http:' && u.protocol !== 'https:'))
    throw new UsageError(`${what} must be an http(s) URL, got "${value}"`);
  const problem = baseUrlProblem(u);
  if (problem) throw new UsageError(`${what} ${problem}, got "${value}"`);
  return value;
}

/**
 * What keeps an http(s) URL from being the service's address; undefined when nothing does. A
 * path is where the service is mounted (`https://host/edp/`, behind a proxy): every request
 * goes under it. A query or a fragment would be dropped from every request, and a path that
 * starts with `//` would make every request path read as another host.
 */
export function baseUrlProblem(u: URL): string | undefined {
  if (u.search !== '' || u.hash !== '' || /[?#]/.test(u.href.slice(u.origin.length)))
    return 'must be the service address without a query or fragment';
  if (u.pathname.startsWith('//')) return 'must not have a path starting with //';
  return undefined;
}

export const SETTINGS: Record<SettingKey, SettingSpec> = {
  workspace: {
    key: 'workspace',
    flag: '--workspace',
    env: 'EDP_WORKSPACE',
    default: undefined,
    description: 'the workspace id used when -w is not given',
    check: (v, what) => parseId(v, what),
  },
  base_url: {
    key: 'base_url',
    flag: '--base-url',
    env: 'EDP_BASE_URL',
    default: DEFAULT_BASE_URL,
    description: 'the service address',
    check: (v, what) => checkUrl(v.trim(), what),
  },
  concurrency: {
    key: 'concurrency',
    flag: '--concurrency',
    env: 'EDP_CONCURRENCY',
    default: AUTO_CONCURRENCY,
    description: `workspaces the fleet commands work on at once: 1 to ${MAX_CONCURRENCY}, or auto (one per workspace, at most ${FLEET_CONCURRENCY_CAP} for a command that changes things, ${FLEET_READ_CONCURRENCY_CAP} for one that only reads)`,
    check: (v, what) =>
      v.trim().toLowerCase() === AUTO_CONCURRENCY
        ? AUTO_CONCURRENCY
        : String(parsePositiveInt(v, what, { max: MAX_CONCURRENCY })),
  },
  poll_interval: {
    key: 'poll_interval',
    flag: '--poll-interval',
    env: 'EDP_POLL_INTERVAL',
    default: DEFAULT_POLL_INTERVAL,
    description: 'first pause between reads while waiting for a build, e.g. 5s',
    check: (v, what) => {
      const text = v.trim();
      if (parseDuration(text, what) <= 0) throw new UsageError(`${what} must be longer than 0, got "${v}"`);
      return text;
    },
  },
};

/** Where a value came from: the flag or variable that gave it, the profile, or the built-in default. */
export type SettingSource = string;

export interface ResolvedSetting {
  key: SettingKey;
  /** undefined when nothing sets it and it has no default (workspace) */
  value: string | undefined;
  /** `--base-url`, `EDP_BASE_URL`, `profile` or `default` */
  source: SettingSource;
}

/** The key, or a usage error listing the keys and the nearest one. */
export function settingKey(name: string): SettingKey {
  if ((SETTING_KEYS as readonly string[]).includes(name)) return name as SettingKey;
  const near = nearestKey(name);
  throw new UsageError(
    `unknown setting "${name}"${near ? ` (did you mean ${near}?)` : ''}; settings: ${SETTING_KEYS.join(', ')}`,
  );
}

function nearestKey(name: string): SettingKey | undefined {
  const wanted = name.toLowerCase().replace(/-/g, '_');
  let best: SettingKey | undefined;
  let bestDistance = Infinity;
  for (const key of SETTING_KEYS) {
    const d = key.startsWith(wanted) && wanted.length >= 2 ? 0 : editDistance(wanted, key);
    if (d < bestDistance) {
      best = key;
      bestDistance = d;
    }
  }
  return bestDistance <= Math.max(2, Math.floor((best?.length ?? 0) / 3)) ? best : undefined;
}

/** The value a profile keeps, as text; a hand-edited file's value is checked like a typed one. */
export function storedSetting(profile: Profile, key: SettingKey, profileName: string): string | undefined {
  const raw = (profile as Record<string, unknown>)[key];
  if (raw === undefined || raw === null || raw === '') return undefined;
  if (typeof raw !== 'string' && typeof raw !== 'number') {
    throw new UsageError(
      `profile "${profileName}" setting ${key} must be text; fix it with \`${suggest(['config', 'set', key, 'VALUE'])}\``,
    );
  }
  return SETTINGS[key].check(String(raw), `profile "${profileName}" setting ${key}`);
}

/** The profile with `key` set to the checked value (numbers kept as numbers in the file). */
export function withSetting(profile: Profile, key: SettingKey, value: string): Profile {
  return { ...profile, [key]: key === 'concurrency' && value !== AUTO_CONCURRENCY ? Number(value) : value };
}
