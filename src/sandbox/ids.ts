/**
 * Id sequences: one table of where each kind's ids start. The kinds below share one id space
 * and their ranges never overlap, so an id names one kind (a data table id is never a load's);
 * a kind that fills its range goes on in a block of its own far above all ranges (`--scale`
 * can make a million accounts). The first ids are relied on: the seed's first workspace is
 * 101, its first template 301, account 20001, data table 5001, load 8001, extract 40001.
 */
export const ID_RANGES = {
  workspace: { first: 101, last: 300 },
  extract_template: { first: 301, last: 1000 },
  connection: { first: 1001, last: 5000 },
  data_table: { first: 5001, last: 7000 },
  destination_connection: { first: 7001, last: 8000 },
  load: { first: 8001, last: 20_000 },
  account: { first: 20_001, last: 40_000 },
  extract: { first: 40_001, last: 600_000 },
  load_run: { first: 600_001, last: 900_000 },
  extract_run: { first: 900_001, last: 9_999_999 },
} as const satisfies Record<string, { first: number; last: number }>;

/**
 * Kinds numbered 1, 2, 3… each on its own, as the service numbers its small catalogs; clients
 * and scripts address the first ones by number (user 1 is the agency chief, role 5 the custom
 * demo role, webhook endpoint 1, external link 1).
 */
export const COUNTED_FROM_ONE = [
  'user',
  'role',
  'webhook_endpoint',
  'webhook_delivery',
  'external_auth_link',
  'load_export',
] as const;

export type RangedKind = keyof typeof ID_RANGES;
export type IdKind = RangedKind | (typeof COUNTED_FROM_ONE)[number];

/** Where a kind's ids go on once its range is full: a block of 10^9 ids per kind, above every range. */
export const OVERFLOW_BLOCK = 1_000_000_000;

function overflowStart(kind: RangedKind): number {
  return OVERFLOW_BLOCK * (Object.keys(ID_RANGES).indexOf(kind) + 1);
}

/** The id after `last` (the last one given out for `kind`, undefined when none yet). */
export function idAfter(kind: IdKind, last: number | undefined): number {
  if (!(kind in ID_RANGES)) return (last ?? 0) + 1;
  const range = ID_RANGES[kind as RangedKind];
  if (last === undefined || last < range.first) return range.first;
  if (last === range.last) return overflowStart(kind as RangedKind);
  return last + 1;
}
