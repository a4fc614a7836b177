import { UsageError } from '../../errors.js';

/** `a,b , c` → ['a', 'b', 'c']; an empty list or a name given twice is refused, naming the flag. */
export function parseNames(value: string, flag: string): string[] {
  const names = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (names.length === 0) throw new UsageError(`${flag} needs at least one name`);
  const dup = names.find((n, i) => names.indexOf(n) !== i);
  if (dup) throw new UsageError(`${flag} names "${dup}" twice`);
  return names;
}
