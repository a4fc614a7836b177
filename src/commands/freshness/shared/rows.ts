import type { Recipe } from '../../../api/recipes.js';
import { idText, jsonInteger } from '../../../util/json.js';

/**
 * One row per workspace and data source (`edp freshness --json` prints these), built from the
 * recipes alone: of what the contract shows, only a recipe tells a time (`last_build_at`, when
 * its last build started, with `state` saying whether that build ended ready) and which accounts
 * of a data source did not deliver (`sources[].not_delivered`). Extracts and loads have no
 * run time in the contract, so none is shown for them.
 */
export interface FreshnessRow {
  workspace_id: unknown;
  data_source: string | null;
  recipe_ids: unknown[];
  /** the oldest start of a successful last build among the recipes; null when one has none */
  last_build_at: string | null;
  build_age_seconds: number | null;
  /** whether the data source delivered at those builds; null when a recipe has no build */
  extraction_delivered: boolean | null;
  not_delivered_accounts: unknown[];
  degraded: boolean;
  stale: boolean;
  error: string | null;
}

/** The ready state of the contract's recipe states: the last build succeeded. */
const READY = 'ready_to_work';

export function workspaceRows(ws: string, recipes: Recipe[], nowMs: number, maxAgeMs: number): FreshnessRow[] {
  const bySource = new Map<string, Recipe[]>();
  for (const r of recipes) {
    const sources = new Set([...(r.data_sources ?? []), ...(r.sources ?? []).map((s) => s.data_source)]);
    for (const ds of sources) bySource.set(ds, [...(bySource.get(ds) ?? []), r]);
  }
  return [...bySource.keys()].sort().map((ds) => {
    const using = bySource.get(ds)!;
    const starts = using.map((r) => (r.state === READY && r.last_build_at ? Date.parse(r.last_build_at) : NaN));
    const oldest = starts.some(Number.isNaN) ? undefined : Math.min(...starts);
    const last_build_at = oldest === undefined ? null : using[starts.indexOf(oldest)]!.last_build_at!;
    const age = oldest === undefined ? null : Math.max(0, Math.round((nowMs - oldest) / 1000));
    const entries = using.map((r) => (r.sources ?? []).find((s) => s.data_source === ds));
    // A build that ended (ready or failed) says for each data source whether it delivered.
    const built = using.every((r) => r.state === READY || r.state === 'failed');
    const extraction_delivered = built ? entries.every((e) => e !== undefined && e.status !== 'failed') : null;
    const notDelivered = new Map<string, unknown>();
    for (const e of entries)
      for (const n of e?.not_delivered ?? []) notDelivered.set(idText(n.account_id), n.account_id);
    return {
      workspace_id: jsonInteger(ws),
      data_source: ds,
      recipe_ids: using.map((r) => r.recipe_id),
      last_build_at,
      build_age_seconds: age,
      extraction_delivered,
      not_delivered_accounts: [...notDelivered.values()],
      degraded: using.some((r) => r.degraded === true),
      stale: age === null || age * 1000 > maxAgeMs || extraction_delivered === false,
      error: null,
    };
  });
}

/** A workspace whose recipes could not be read: a row that says so, counted as stale. */
export function errorRow(ws: string, message: string): FreshnessRow {
  return {
    workspace_id: jsonInteger(ws),
    data_source: null,
    recipe_ids: [],
    last_build_at: null,
    build_age_seconds: null,
    extraction_delivered: null,
    not_delivered_accounts: [],
    degraded: false,
    stale: true,
    error: message,
  };
}
