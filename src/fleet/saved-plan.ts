import { suggest } from '../util/suggest.js';
import { ExitError, UsageError } from '../errors.js';
import { parseJsonDocument } from '../util/document.js';
import { readInputFileSync } from '../util/stdin.js';
import { stringifyJson } from '../util/json.js';
import { PLAN_FORMAT_VERSION, type FleetPlan } from './plan.js';
import { VALUE_SECTIONS, type Env } from './file.js';
import { referencesOf, shownValue, stringsOf } from './values.js';

/**
 * A saved plan (`edp plan --out FILE`): the plan's JSON document plus `source`, what it was
 * computed from: the fleet file as read, the options that shape a plan, the service's origin and
 * a digest of each live object read. `edp apply FILE` plans again from the same source and
 * carries the plan out only when the live state is the one reviewed (docs/plan.schema.json).
 */
export interface PlanSource {
  /** the fleet document as read (YAML or JSON), parsed again by apply */
  file: unknown;
  /** the file's name, for messages */
  file_name: string;
  prune: boolean;
  /** `--send-secrets` of the plan: the secret fields of existing destination connections sent again */
  send_secrets?: boolean | undefined;
  /** `-w IDS` of the plan, null for every workspace of the file */
  workspaces: string[] | null;
  /** the service the plan was read from (origin only: never credentials) */
  service: string;
  created_at: string;
  live: { workspaces: Record<string, Record<string, string>>; agency: Record<string, string> };
}

export function savedPlanDocument(
  /** the plan's JSON document, as `plan --json` prints it */
  document: Record<string, unknown>,
  plan: FleetPlan,
  source: Omit<PlanSource, 'live' | 'created_at'>,
  now = new Date(),
): Record<string, unknown> {
  const live: PlanSource['live'] = {
    workspaces: Object.fromEntries(plan.workspaces.map((w) => [w.workspace_id, w.live])),
    agency: plan.agency.live,
  };
  return { ...document, source: { ...source, created_at: now.toISOString(), live } satisfies PlanSource };
}

export interface SavedPlan {
  path: string;
  document: Record<string, unknown>;
  source: PlanSource;
}

/** What names a saved plan in messages about reading it (it is `edp apply`'s argument, not a flag's). */
const SAVED_PLAN = 'saved plan';

/**
 * A saved plan read for `edp apply FILE`, checked as every file is (UTF-8, a key given twice,
 * depth, numbers: util/document.ts); anything else is bad input naming the file (exit 2).
 */
export function readSavedPlan(path: string): SavedPlan {
  // A fleet file given here (YAML, or not JSON at all) is told where it goes, before its JSON is judged.
  const text = readInputFileSync(path, SAVED_PLAN);
  if (!/^\s*[[{]/.test(text))
    throw new UsageError(
      `${path} is not a saved plan (not JSON: write one with \`${suggest(['plan', '-f', 'FILE', '--out', path])}\`); a fleet file is applied with -f ${path}`,
    );
  const doc = parseJsonDocument(text, SAVED_PLAN, path);
  const d = doc as Record<string, unknown> | null;
  if (!isSavedPlan(d))
    throw new UsageError(
      `${path} is not a saved plan (no "source": write one with \`${suggest(['plan', '-f', 'FILE', '--out', path])}\`); a fleet file is applied with -f ${path}`,
    );
  if (d.format_version !== PLAN_FORMAT_VERSION)
    throw new UsageError(
      `${path}: plan format_version ${String(d.format_version)} is not ${PLAN_FORMAT_VERSION}, the one this edp reads; plan again with this edp`,
    );
  return { path, document: d, source: d.source };
}

/** Whether a document is a plan saved by `edp plan --out` (whatever its format version): what -f is told to leave to apply. */
export function isSavedPlan(doc: unknown): doc is Record<string, unknown> & { source: PlanSource } {
  const source = (doc as { source?: unknown } | null)?.source;
  return (
    typeof doc === 'object' &&
    doc !== null &&
    !Array.isArray(doc) &&
    typeof source === 'object' &&
    source !== null &&
    'file' in source
  );
}

/**
 * What moved between the saved plan and a new one computed from the same source: live objects
 * added, removed or changed, and planned changes that differ. Empty when the plan can be applied
 * as reviewed.
 */
export function planDrift(saved: SavedPlan, fresh: FleetPlan): string[] {
  const moved: string[] = [];
  const compare = (where: string, before: Record<string, string>, after: Record<string, string>) => {
    for (const key of Object.keys(before)) {
      if (!(key in after)) moved.push(`${where}: ${key} was deleted`);
      else if (after[key] !== before[key]) moved.push(`${where}: ${key} changed`);
    }
    for (const key of Object.keys(after)) if (!(key in before)) moved.push(`${where}: ${key} was created`);
  };
  const { live } = saved.source;
  const savedWorkspaces = Object.keys(live.workspaces);
  const freshWorkspaces = fresh.workspaces.map((w) => w.workspace_id);
  for (const ws of savedWorkspaces.filter((x) => !freshWorkspaces.includes(x)))
    moved.push(`workspace ${ws} is no longer in the plan's scope`);
  for (const w of fresh.workspaces) {
    const before = live.workspaces[w.workspace_id];
    if (before === undefined) moved.push(`workspace ${w.workspace_id} is new in the plan's scope`);
    else compare(`workspace ${w.workspace_id}`, before, w.live);
  }
  compare('agency', live.agency, fresh.agency.live);
  // The same objects can still plan otherwise (an account that went inactive, a template renamed).
  // As the plan was saved: values of the environment by their text, never their value.
  const now = shownValue({
    workspaces: fresh.workspaces.map((w) => ({ workspace_id: w.workspace_id, changes: w.changes, blocked: w.blocked })),
    agency: { changes: fresh.agency.changes, blocked: fresh.agency.blocked },
  }) as Record<string, unknown>;
  const parts = (doc: Record<string, unknown>) => {
    const ws = (doc.workspaces as Array<Record<string, unknown>> | undefined) ?? [];
    const agency = doc.agency as Record<string, unknown> | undefined;
    return new Map<string, string>([
      ...ws.map((w): [string, string] => [
        // A workspace to create is saved with no id, by its title.
        `workspace ${w.workspace_id === null ? `new:${String(w.title)}` : String(w.workspace_id)}`,
        stringifyJson([w.changes, w.blocked]),
      ]),
      ['agency', stringifyJson([agency?.changes, agency?.blocked])],
    ]);
  };
  const was = parts(saved.document);
  for (const [where, text] of parts(now)) {
    if (was.has(where) && was.get(where) !== text && !moved.some((m) => m.startsWith(`${where}:`)))
      moved.push(`${where}: the changes to make are no longer the ones reviewed`);
  }
  return moved;
}

/** The refusal of a saved plan whose live state moved (exit 6). */
export function driftError(saved: SavedPlan, moved: string[]): ExitError {
  return new ExitError(
    'conflict',
    `the live state moved since ${saved.path} was saved, so it is not applied:\n  ${moved.join('\n  ')}\nplan again (\`${suggest(['plan', '-f', saved.source.file_name, '--out', saved.path])}\`) and review the new plan`,
  );
}

/**
 * The environment variables a saved plan's file takes values from that are not set now. A saved
 * plan holds no value of the environment: apply reads each again, and sends what it reads.
 */
export function unsetVariables(saved: SavedPlan, env: Env): string[] {
  const doc = saved.source.file as Record<string, unknown> | null;
  const names = new Set<string>();
  for (const section of VALUE_SECTIONS)
    for (const { s } of stringsOf(doc?.[section]))
      for (const r of referencesOf(s).refs) if (r.kind === 'env' && env[r.name] === undefined) names.add(r.name);
  return [...names];
}

/** The refusal of a saved plan whose values of the environment are not all set (exit 2). */
export function unsetError(saved: SavedPlan, names: string[]): UsageError {
  return new UsageError(
    `${saved.path} takes values from the environment, which a saved plan never holds, and ${names.join(', ')} ${names.length > 1 ? 'are' : 'is'} not set: set ${names.length > 1 ? 'them' : 'it'} as when it was planned, then apply it again`,
  );
}
