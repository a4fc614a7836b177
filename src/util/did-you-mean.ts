/**
 * "Did you mean …?" for names the tool can check against a known list (data sources,
 * templates, event types, spec keys): the one place that decides what counts as close.
 */

/**
 * Edit distance with adjacent transpositions (optimal string alignment, Damerau–Levenshtein),
 * case-insensitive: `goolge_ads` is one edit from `google_ads`. Three rows of the table are kept,
 * not the whole of it.
 */
export function editDistance(a: string, b: string): number {
  const s = [...a.toLowerCase()];
  const t = [...b.toLowerCase()];
  let before = new Array<number>(t.length + 1).fill(0);
  let previous = Array.from({ length: t.length + 1 }, (_, j) => j);
  let row = new Array<number>(t.length + 1).fill(0);
  for (let i = 1; i <= s.length; i++) {
    row[0] = i;
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      let best = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1]) best = Math.min(best, before[j - 2]! + 1);
      row[j] = best;
    }
    [before, previous, row] = [previous, row, before];
  }
  return previous[t.length]!;
}

/**
 * The known names closest to `name`, best first, at most `max`: those within a few edits (a
 * third of the name's length, at least 2) and those that contain it or it contains. Names whose
 * lengths differ by more than that are not measured (they cannot be within it), so a long name
 * costs its length per known name, not its length times theirs.
 */
export function closest(name: string, known: Iterable<string>, max = 3): string[] {
  const wanted = name.toLowerCase();
  const limit = Math.max(2, Math.floor(wanted.length / 3));
  const length = [...wanted].length;
  const scored: Array<[string, number]> = [];
  for (const k of new Set(known)) {
    const lower = k.toLowerCase();
    if (lower === wanted) continue;
    const contains = wanted.length >= 3 && (lower.includes(wanted) || wanted.includes(lower));
    const near = Math.abs([...lower].length - length) <= limit;
    if (!near && !contains) continue;
    const dist = near ? editDistance(wanted, lower) : limit;
    if (dist <= limit || contains) scored.push([k, contains ? Math.min(dist, limit) : dist]);
  }
  return scored
    .sort((x, y) => x[1] - y[1] || x[0].localeCompare(y[0]))
    .slice(0, max)
    .map(([k]) => k);
}

/** `did you mean a, b or c?`, or '' when nothing is close. */
export function didYouMean(name: string, known: Iterable<string>, quote: (k: string) => string = (k) => k): string {
  const near = closest(name, known).map(quote);
  if (near.length === 0) return '';
  const list = near.length === 1 ? near[0]! : `${near.slice(0, -1).join(', ')} or ${near[near.length - 1]!}`;
  return `did you mean ${list}?`;
}
