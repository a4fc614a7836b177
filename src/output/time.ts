/**
 * Times as a person reads them at a terminal ("3 minutes ago", "in 2 days"), like gh; piped and
 * JSON output keep the service's exact value.
 */

/** A date and time as the service writes them (ISO 8601 with a time of day); a bare date is not one. */
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?$/;

export function isTimestamp(value: unknown): value is string {
  return typeof value === 'string' && TIMESTAMP.test(value) && !Number.isNaN(Date.parse(value));
}

const UNITS: Array<[string, number]> = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

/** `iso` relative to `now` (ms since the epoch): "just now", "5 minutes ago", "in 3 days". */
export function relativeTime(iso: string, now: number): string {
  const seconds = Math.round((Date.parse(iso) - now) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 60) return 'just now';
  for (const [unit, size] of UNITS) {
    if (abs >= size) {
      const n = Math.floor(abs / size);
      const text = `${n} ${unit}${n === 1 ? '' : 's'}`;
      return seconds < 0 ? `${text} ago` : `in ${text}`;
    }
  }
  return 'just now';
}
