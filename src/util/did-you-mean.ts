/**
 * "Did you mean …?" for names the tool can check against a known list (data sources,
 * templates, event types, spec keys): the one place that decides what counts as close.
 */

/**
 * Edit distance with adjacent transpositions (optimal string alignment, Damerau–Levenshtein),
 * case-insensitive: `goolge_ads` is one edit from `google_ads`.
 */
export function editDistance(a: string, b: string): number {
  const s = [...a.toLowerCase()];
  const t = [...b.toLowerCase()];
  const d: number[][] = Array.from({ length: s.length + 1 }, (_, i) =>
    Array.from({ length: t.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= s.length; i++) {
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1])
        best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[s.length]![t.length]!;
}

/**
 * The known names closest to `name`, best first, at most `max`: those within a few edits (a
 * third of the name's length, at least 2) and those that contain it or it contains.
 */
export function closest(name: string, known: Iterable<string>, max = 3): string[] {
  const wanted = name.toLowerCase();
  const limit = Math.max(2, Math.floor(wanted.length / 3));
  const scored: Array<[string, number]> = [];
  for (const k of new Set(known)) {
    const lower = k.toLowerCase();
    if (lower === wanted) continue;
    const dist = editDistance(wanted, lower);
    const contains = wanted.length >= 3 && (lower.includes(wanted) || wanted.includes(lower));
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
