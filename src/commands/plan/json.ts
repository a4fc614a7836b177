import { PLAN_FORMAT_VERSION, planTotals } from '../../fleet/plan.js';
import type { AgencyPlan, FleetPlan, WorkspacePlan } from '../../fleet/plan/types.js';
import { errorJson } from '../../output/errors.js';
import { jsonInteger } from '../../util/json.js';
import { shownValue } from '../../fleet/values.js';

/**
 * `plan --json`: `{format_version, workspaces: [{workspace_id, title?, changes, blocked, notes, unmanaged, error}], agency:
 * {changes, blocked, unmanaged, error}, summary: {changes, blocked, errors}}`. A change is
 * `{resource, name, action, id, detail}`, a blocked item `{resource, name, code, message}`.
 */
export function planJson(plan: FleetPlan): Record<string, unknown> {
  // Never a value of the environment: its text, (from env NAME), in its place.
  const part = (p: WorkspacePlan | AgencyPlan) => ({
    changes: shownValue(p.changes),
    blocked: shownValue(p.blocked),
    ...('notes' in p ? { notes: shownValue(p.notes) } : {}),
    unmanaged: shownValue(p.unmanaged),
    error: p.error ? errorJson(p.error).error : null,
  });
  return {
    format_version: PLAN_FORMAT_VERSION,
    workspaces: plan.workspaces.map((w) => ({
      // A client's workspace to create has no id yet: its title names it.
      workspace_id: w.client?.create ? null : jsonInteger(w.workspace_id),
      ...(w.client ? { title: w.client.title } : {}),
      ...part(w),
    })),
    agency: part(plan.agency),
    summary: planTotals(plan),
  };
}
