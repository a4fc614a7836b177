import { UsageError } from '../errors.js';
import type { Service } from '../api/service.js';
import { applyFailures, applyFleet, plannedRows, addFact, type ApplyRow, type FleetApplyOptions } from './apply.js';
import type { FleetFile } from './file.js';
import type { FleetPlan, WorkspacePlan } from './plan.js';

/**
 * `apply --waves 1,10%,100%`: the plan carried out a few workspaces at a time. Each part is a
 * bound, cumulative: a count of workspaces, or a percentage of them rounded up. Wave k covers
 * the workspaces up to its bound, in the plan's order, that the waves before it did not; the
 * workspaces left after the last bound form one more wave. The workspaces counted are those the
 * plan has something for (a change, an item that cannot be done, a part that cannot be read);
 * the agency's roles go with the first wave. A wave starts only when the one before it ended
 * without a failure.
 */

/** One part of a `--waves` spec as given: a count of workspaces or a percentage of them. */
export interface WaveBound {
  text: string;
  kind: 'count' | 'percent';
  value: number;
}

/** The workspaces of one wave (`agency`: the roles go with it). */
export interface Wave {
  /** 1-based */
  number: number;
  of: number;
  workspaces: WorkspacePlan[];
  /** the agency's roles go with this wave (the first, when the plan has something for them) */
  agency: boolean;
}

const bad = (spec: string, why: string) => new UsageError(`--waves ${JSON.stringify(spec)}: ${why}`);

/** Checks a `--waves` spec before anything is sent (exit 2 naming the part at fault). */
export function parseWaves(spec: string): WaveBound[] {
  if (spec.trim() === '') throw bad(spec, 'empty; give counts or percentages of the workspaces, e.g. 1,10%,100%');
  const bounds: WaveBound[] = [];
  for (const raw of spec.split(',')) {
    const text = raw.trim();
    if (text === '') throw bad(spec, 'an empty part (two commas, or one at an end)');
    const m = /^(\d+(?:\.\d+)?)(%?)$/.exec(text);
    if (!m || (m[2] === '' && m[1]!.includes('.')))
      throw bad(spec, `"${text}" is neither a count of workspaces (5) nor a percentage of them (10%)`);
    const bound: WaveBound = { text, kind: m[2] ? 'percent' : 'count', value: Number(m[1]) };
    if (bound.value === 0) throw bad(spec, `"${text}": a wave needs at least one workspace`);
    if (bound.kind === 'percent' && bound.value > 100) throw bad(spec, `"${text}" is more than 100%`);
    const last = [...bounds].reverse().find((b) => b.kind === bound.kind);
    if (last && bound.value <= last.value)
      throw bad(spec, `"${text}" after "${last.text}": each wave must cover more workspaces than the one before`);
    if (bounds.some((b) => b.kind === 'percent' && b.value === 100))
      throw bad(spec, `"${text}" after 100%: the waves already cover every workspace`);
    bounds.push(bound);
  }
  return bounds;
}

/** The workspaces a wave counts: those the plan has something for, in the plan's order. */
export function waveWorkspaces(plan: FleetPlan): WorkspacePlan[] {
  return plan.workspaces.filter((w) => w.error || w.changes.length > 0 || w.blocked.length > 0 || w.recipes.length);
}

/**
 * The waves of a plan. A count beyond the workspaces is all of them; a bound that covers no
 * more than the one before (a percentage rounded up to the same count) adds no wave; one that
 * covers fewer (a count before a smaller percentage, `10,5%` of 100) is bad input.
 */
export function resolveWaves(spec: string, bounds: WaveBound[], plan: FleetPlan): Wave[] {
  const all = waveWorkspaces(plan);
  const n = all.length;
  const ends: number[] = [];
  let before: WaveBound | undefined;
  for (const b of bounds) {
    const end = b.kind === 'count' ? Math.min(b.value, n) : Math.ceil((b.value * n) / 100 - 1e-9);
    const prev = ends.at(-1) ?? 0;
    if (end < prev)
      throw bad(
        spec,
        `"${b.text}" is ${end} of the ${n} workspace(s) the plan changes, fewer than the ${prev} of "${before!.text}" before it`,
      );
    if (end > prev) ends.push(end);
    before = b;
  }
  if ((ends.at(-1) ?? 0) < n || ends.length === 0) ends.push(n);
  return ends.map((end, i) => ({
    number: i + 1,
    of: ends.length,
    workspaces: all.slice(i === 0 ? 0 : ends[i - 1], end),
    agency: i === 0 && !!(plan.agency.error || plan.agency.changes.length || plan.agency.blocked.length),
  }));
}

/** What became of the waves: the rows (each with its wave), the failures of the waves run, where it stopped. */
export interface WavesOutcome {
  rows: ApplyRow[];
  failures: unknown[];
  /** the wave whose failure stopped the run */
  failed: Wave | undefined;
  /** that wave was stopped by Ctrl-C or a stop signal rather than by a failure of its own */
  stopped: boolean;
  /** the waves never started */
  notStarted: Wave[];
}

/**
 * Carries the plan out wave by wave, each applied and waited on to its end (builds included),
 * the next started only when no row of this one failed. `begun` is told as each wave starts.
 */
export async function applyWaves(
  api: Service,
  file: FleetFile,
  plan: FleetPlan,
  waves: Wave[],
  opts: FleetApplyOptions & { begun: (wave: Wave) => void },
): Promise<WavesOutcome> {
  // A service the plan's reads found unreachable is sent no write at all, in any wave.
  for (const part of [...plan.workspaces, plan.agency]) if (part.error) api.noteFailure(part.error);
  const rows: ApplyRow[] = [];
  const noRoles = { ...plan.agency, changes: [], blocked: [], unmanaged: [], error: null };
  for (const [i, wave] of waves.entries()) {
    opts.begun(wave);
    const part: FleetPlan = { ...plan, workspaces: wave.workspaces, agency: wave.agency ? plan.agency : noRoles };
    // Each row marked in place: a failed row's cause is kept by the row itself (apply.ts).
    const done = await applyFleet(api, file, part, opts);
    for (const r of done) r.wave = wave.number;
    rows.push(...done);
    const failures = applyFailures(done);
    if (failures.length > 0) {
      const notStarted = waves.slice(i + 1);
      const stopped = opts.signal?.aborted === true;
      rows.push(...notStarted.flatMap((w) => notStartedRows(w, wave, stopped)));
      return { rows, failures, failed: wave, stopped, notStarted };
    }
  }
  return { rows, failures: [], failed: undefined, stopped: false, notStarted: [] };
}

/** The rows of a wave never started: what it would have done, `not started`, nothing sent. */
function notStartedRows(w: Wave, failed: Wave, stopped: boolean): ApplyRow[] {
  const reason = {
    code: 'earlier_wave_failed',
    message: `not started: wave ${failed.number} of ${failed.of} ${stopped ? 'was stopped' : 'failed'}; nothing was sent for it`,
  };
  return w.workspaces.flatMap((p) =>
    plannedRows(p).map((r) => {
      if (r.result !== 'ok') return { ...r, wave: w.number };
      const left = { ...r, result: 'not started', error: reason, wave: w.number };
      addFact(left, { kind: 'earlier-wave-failed', wave: failed.number, stopped });
      return left;
    }),
  );
}
