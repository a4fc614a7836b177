import { errorLines } from '../../output/errors.js';
import { idText } from '../../util/json.js';
import { planTotals } from '../../fleet/plan.js';
import type { AgencyPlan, FleetPlan, WorkspacePlan } from '../../fleet/plan/types.js';
import { changeText, workspaceText } from '../shared/plan-text.js';
import { shownValue } from '../../fleet/values.js';
import type { Change } from '../../fleet/plan/types.js';

const capitalized = (s: string) => `${s.charAt(0).toUpperCase()}${s.slice(1)}`;

/** Text inside a Markdown table cell or list item: no line breaks, no stray pipes. */
const cell = (text: string) => text.replace(/\r?\n/g, ' ').replace(/\|/g, '\\|');

/**
 * `edp plan --format markdown`: the plan as a pull-request comment. A summary line first, then
 * one section per workspace (and one for the agency's roles) with what cannot be done before
 * what will be done, so that a reviewer sees the blockers without scrolling.
 */
export function planMarkdown(plan: FleetPlan): string {
  const t = planTotals(plan);
  const out: string[] = ['### edp plan', ''];
  out.push(
    t.changes === 0 && t.blocked === 0 && t.errors === 0
      ? '**No changes.** The workspaces match the file.'
      : `**${t.changes} change(s) to make**, ${t.blocked} that cannot be done, ${t.errors} part(s) that could not be read.`,
  );
  const section = (title: string, p: WorkspacePlan | AgencyPlan) => {
    const notes = 'notes' in p ? p.notes : [];
    if (!p.error && p.changes.length === 0 && p.blocked.length === 0 && p.unmanaged.length === 0 && notes.length === 0)
      return;
    out.push('', `#### ${title}`, '');
    if (p.error) out.push(`- :x: **cannot be read**: ${cell(errorLines(p.error).join(' '))}`);
    for (const b of p.blocked)
      out.push(`- :no_entry: **cannot be done** (\`${b.code}\`) ${b.resource} "${cell(b.name)}": ${cell(b.message)}`);
    for (const c of p.changes) out.push(`- \`${cell(changeText(shownValue(c) as Change))}\``);
    for (const n of notes) out.push(`- :warning: ${n.resource} "${cell(n.name)}": ${cell(n.message)}`);
    for (const u of p.unmanaged)
      out.push(`- ${u.resource} ${cell(u.name)} (${idText(u.id)}) is not in the file; deleted only with \`--prune\``);
  };
  for (const w of plan.workspaces) section(capitalized(workspaceText(w)), w);
  section('Agency roles', plan.agency);
  const quiet = plan.workspaces.filter(
    (w) => !w.error && !w.changes.length && !w.blocked.length && !w.unmanaged.length && !w.notes.length,
  );
  if (quiet.length > 0)
    out.push(
      '',
      `No change in workspace(s) ${quiet.map((w) => workspaceText(w).replace(/^workspace /, '')).join(', ')}.`,
    );
  return `${out.join('\n')}\n`;
}
