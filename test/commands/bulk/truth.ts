import { expect } from 'vitest';

/**
 * What a bulk run under faults must hold, whatever the faults hit: each selected item has one
 * row; none was started twice; a row `ok` is an item started once, a row `not started` one never
 * started; no row is left `outcome_unknown` (a lost answer is read back, not given up on); and
 * the exit code is 0 exactly when every row is ok (1 otherwise: here every failure is the
 * service's or the network's).
 */
export function expectTrueSummary(
  rows: Array<{ id: unknown; outcome: string; error: { code?: string } | null }>,
  started: Record<string, number>,
  selected: string[],
  code: number,
): void {
  expect(rows.map((r) => String(r.id)).sort()).toEqual([...selected].sort());
  expect(Object.keys(started).every((id) => selected.includes(id))).toBe(true);
  expect(Object.values(started).every((n) => n === 1)).toBe(true);
  for (const r of rows) {
    if (r.outcome === 'ok') expect(started[String(r.id)], `row ${String(r.id)} ok`).toBe(1);
    if (r.outcome === 'not started') expect(started[String(r.id)], `row ${String(r.id)} not started`).toBeUndefined();
    expect(r.error?.code, `row ${String(r.id)}`).not.toBe('outcome_unknown');
  }
  expect(code).toBe(rows.every((r) => r.outcome === 'ok') ? 0 : 1);
}
