import { PLAN_FORMAT_VERSION, planTotals } from '../../fleet/plan.js';
import type { AgencyPlan, FleetPlan, WorkspacePlan } from '../../fleet/plan/types.js';
import { errorJson } from '../../output/errors.js';
import { jsonInteger } from '../../util/json.js';

/**
 * `plan --json`: `{format_version, workspaces: [{workspace_id, changes, blocked, notes, unmanaged, error}], agency:
 * {changes, blocked, unmanaged, error}, summary: {changes, blocked, errors}}`. A change is
 * `{resource, name, action, id, detail}`, a blocked item `{resource, name, code, message}`.
 */
export function planJson(plan: FleetPlan): Record<string, unknown> {
  const part = (p: WorkspacePlan | AgencyPlan) => ({
    changes: p.changes,
    blocked: p.blocked,
    ...('notes' in p ? { notes: p.notes } : {}),
    unmanaged: p.unmanaged,
    error: p.error ? errorJson(p.error).error : null,
  });
  return {
    format_version: PLAN_FORMAT_VERSION,
    workspaces: plan.workspaces.map((w) => ({ workspace_id: jsonInteger(w.workspace_id), ...part(w) })),
    agency: part(plan.agency),
    summary: planTotals(plan),
  };
}
