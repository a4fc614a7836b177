import { UsageError } from '../errors.js';
import { didYouMean } from './did-you-mean.js';

/** Identifiers are kept as their digits so that ids beyond 2^53 survive. */
export function parseId(value: string, what: string): string {
  const v = String(value).trim();
  if (!/^\d+$/.test(v) || /^0\d/.test(v)) throw new UsageError(`${what} must be a positive integer id, got "${value}"`);
  if (/^0+$/.test(v)) throw new UsageError(`${what} must be a positive integer id, got "${value}"`);
  return v;
}

export function parseIdList(value: string, what: string): string[] {
  const parts = String(value)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (parts.length === 0) throw new UsageError(`${what} needs at least one id`);
  return parts.map((p) => parseId(p, what));
}

export function parsePositiveInt(value: string, what: string, opts: { min?: number; max?: number } = {}): number {
  const v = String(value).trim();
  const min = opts.min ?? 1;
  if (!/^\d+$/.test(v)) throw new UsageError(`${what} must be a whole number, got "${value}"`);
  const n = Number(v);
  if (n < min || (opts.max !== undefined && n > opts.max)) {
    throw new UsageError(
      opts.max === undefined
        ? `${what} must be a whole number of ${min} or more, got ${value}`
        : `${what} must be between ${min} and ${opts.max}, got ${value}`,
    );
  }
  return n;
}

const DURATION_UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** "30s", "2m", "1h30m", "500ms" or a bare number of seconds. */
export function parseDuration(value: string, what: string): number {
  const v = String(value).trim();
  if (/^\d+(\.\d+)?$/.test(v)) return withinTimerRange(Math.round(Number(v) * 1000), value, what);
  const re = /(\d+(?:\.\d+)?)(ms|s|m|h)/gy;
  let total = 0;
  let matched = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(v)) !== null) {
    total += Number(m[1]) * DURATION_UNITS[m[2]!]!;
    matched = re.lastIndex;
  }
  if (matched === 0 || matched !== v.length) {
    throw new UsageError(`${what} must be a duration such as 30s, 5m or 1h, got "${value}"`);
  }
  return withinTimerRange(Math.round(total), value, what);
}

/** The longest wait a timer can hold (2^31 - 1 ms, about 24.8 days); longer ones fail at run time. */
export const MAX_DURATION_MS = 2 ** 31 - 1;

function withinTimerRange(ms: number, value: string, what: string): number {
  if (ms > MAX_DURATION_MS) throw new UsageError(`${what} must be at most 24 days (596h), got "${value}"`);
  return ms;
}

/**
 * Whether `value` is an ISO 8601 calendar date, YYYY-MM-DD, that exists: the one date check of
 * the command line (flags, prompts, `--file` schemas) and of the sandbox.
 */
export function isDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

/** An ISO 8601 calendar date, YYYY-MM-DD, that exists. */
export function parseDate(value: string, what: string): string {
  const v = String(value).trim();
  if (isDate(v)) return v;
  throw new UsageError(`${what} must be a date as YYYY-MM-DD, got "${value}"`);
}

const EMAIL = /^[^\s@,;]+@[^\s@,;]+\.[^\s@,;]+$/;

export function parseEmail(value: string, what: string): string {
  const v = String(value).trim();
  if (!EMAIL.test(v)) throw new UsageError(`${what}: "${value}" is not an e-mail address`);
  return v;
}

export function parseEmailList(values: string | string[], what: string): string[] {
  const list = (Array.isArray(values) ? values : [values]).flatMap((v) => String(v).split(','));
  const emails = list.map((s) => s.trim()).filter(Boolean);
  if (emails.length === 0) throw new UsageError(`${what} needs at least one e-mail address`);
  return emails.map((e) => parseEmail(e, what));
}

/** One of `choices`, as given; otherwise exit 2 naming `what`, the choices and the nearest ones. */
export function parseChoice<T extends string>(value: string, choices: readonly T[], what: string): T {
  if ((choices as readonly string[]).includes(value)) return value as T;
  throw choiceError(value, choices, what);
}

/** The usage error of a value that is none of `choices`: `… got "faild"; did you mean failed?` */
export function choiceError(value: string, choices: readonly string[], what: string): UsageError {
  const near = didYouMean(value, choices);
  return new UsageError(`${what} must be one of ${choices.join(', ')}, got "${value}"${near ? `; ${near}` : ''}`);
}

export function parseUrl(value: string, what: string): string {
  try {
    const u = new URL(value);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('scheme');
    return value;
  } catch {
    throw new UsageError(`${what} must be an http(s) URL, got "${value}"`);
  }
}
