import type { ChalkInstance } from 'chalk';
import { errorLines } from '../../output/errors.js';
import { idText } from '../../util/json.js';
import type { WorkBegun } from '../../fleet/apply.js';
import type { AgencyPlan, Change, FleetPlan, WorkspacePlan } from '../../fleet/plan/types.js';
import { planTotals } from '../../fleet/plan.js';
import { shownValue } from '../../fleet/values.js';
import { isNewKey } from '../../fleet/select.js';
import { kindChangeText } from './plan-text-kinds.js';

/** The plan for a person: a line per change, blocked item, note and unmanaged object. */

/** A workspace's line as the plan reads the fleet: how many changes, or that it cannot be read. */
export function workspaceReadText(p: WorkspacePlan): string {
  const counts = `${p.changes.length} change(s)${p.blocked.length ? `, ${p.blocked.length} blocked` : ''}`;
  return `read ${workspaceText(p)}: ${p.error ? 'cannot be read' : counts}`;
}

/** `workspace 101`, `workspace 101 (Acme Retail)` for a client's, `workspace "Acme Retail" (new)` for one to create. */
export function workspaceText(p: Pick<WorkspacePlan, 'workspace_id' | 'client'>): string {
  if (p.client?.create) return `workspace "${p.client.title}" (new)`;
  return `workspace ${p.workspace_id}${p.client ? ` (${p.client.title})` : ''}`;
}

/** The line apply writes as it begins a recipe or an endpoint of a workspace. */
export function workBegunText(w: WorkBegun): string {
  return `[${workspaceKeyText(w.workspace)}] ${resourceText(w.resource, w.name)}: ${w.action}`;
}

/** A workspace in a list: its id, or for one still to create (`new:TITLE`, select.ts) its title. */
export function workspaceKeyText(key: string): string {
  return isNewKey(key) ? `"${key.slice('new:'.length)}" (new)` : key;
}

/** `recipe "Paid Media"`, `webhook https://…`: a resource by its name in the file (a url bare, a title quoted). */
function resourceText(resource: string, name: string): string {
  return `${resource} ${resource === 'webhook' ? name : `"${name}"`}`;
}

/** One line for a person per change. */
export function changeText(c: Change): string {
  const what = `${resourceText(c.resource, c.name)}${c.id !== null && c.id !== undefined ? ` (${idText(c.id)})` : ''}`;
  if (c.action === 'delete') return `- ${what}: delete (--prune)`;
  switch (c.resource) {
    case 'workspace':
      return c.action === 'create'
        ? `+ ${what}: create (a client's workspace)`
        : `~ ${what}: rename from "${c.detail.was}"`;
    case 'recipe':
      if (c.action === 'create')
        return `+ ${what}: create from template ${idText(c.detail.template_id)}, titled "${c.detail.title}"`;
      if (c.action === 'build') return `~ ${what}: build${c.detail.state ? ` (now ${c.detail.state})` : ''}`;
      return `~ ${what}: ${configureText(c.detail) || 'configure'}`;
    case 'webhook':
      return c.action === 'create'
        ? `+ ${what}: create, events ${c.detail.events.join(', ')}`
        : `~ ${what}: events ${setDiff(c.detail.was, c.detail.events)}`;
    case 'role': {
      if (c.action === 'create') return `+ ${what}: create, permissions ${c.detail.permissions.join(', ') || 'none'}`;
      // Only what changes: the description, the permissions added and removed.
      const parts: string[] = [];
      if (c.detail.description !== c.detail.was.description)
        parts.push(`description "${c.detail.was.description}" → "${c.detail.description}"`);
      const permissions = setDiff(c.detail.was.permissions, c.detail.permissions);
      if (permissions) parts.push(`permissions ${permissions}`);
      return `~ ${what}: ${parts.join('; ') || 'update'}`;
    }
    default:
      return kindChangeText(c, what);
  }
}

/** What a set gains and loses: `+ load_started, - load_failed`. */
export function setDiff(was: string[], now: string[]): string {
  const added = now.filter((x) => !was.includes(x)).map((x) => `+ ${x}`);
  const removed = was.filter((x) => !now.includes(x)).map((x) => `- ${x}`);
  return [...added, ...removed].join(', ');
}

function configureText(d: Extract<Change, { action: 'configure' }>['detail']): string {
  const parts = d.accounts.map((a) => `append ${a.add.length} ${a.data_source} account(s): ${a.add.join(', ')}`);
  if (d.data_sources) parts.unshift(`add data source(s) ${d.data_sources.join(', ')}`);
  if (d.sync_from_date) parts.push(`history from ${d.sync_from_date}`);
  return parts.join('; ');
}

/** The colour of each change's symbol, as terraform's plan shows them. */
const SYMBOL_COLOURS: Partial<Record<string, (c: ChalkInstance) => ChalkInstance>> = {
  '+': (c) => c.green,
  '~': (c) => c.yellow,
  '-': (c) => c.red,
  '✗': (c) => c.red,
  '!': (c) => c.yellow,
  '·': (c) => c.dim,
};

/** A plan line with its leading symbol (`  + …`) coloured; the text is unchanged. */
function paintSymbol(line: string, colours: ChalkInstance): string {
  const symbol = line.charAt(2);
  const colour = SYMBOL_COLOURS[symbol];
  return colour && line.startsWith(`  ${symbol} `) ? `  ${colour(colours)(symbol)}${line.slice(3)}` : line;
}

/**
 * The plan for a person: per workspace, then the agency's roles, then a summary line; with
 * `colours`, each change's symbol in its colour.
 */
export function planLines(plan: FleetPlan, colours?: ChalkInstance): string[] {
  const lines: string[] = [];
  const paint = colours ? (line: string) => paintSymbol(line, colours) : (line: string) => line;
  const part = (title: string, p: AgencyPlan | WorkspacePlan) => {
    const notes = 'notes' in p ? p.notes : [];
    if (!p.error && p.changes.length === 0 && p.blocked.length === 0 && p.unmanaged.length === 0) {
      lines.push(`${title}: no change`);
      for (const n of notes) lines.push(`  ! ${n.resource} "${n.name}": ${n.message}`);
      return;
    }
    lines.push(`${title}:`);
    if (p.error) lines.push(`  cannot be read: ${errorLines(p.error).join('\n    ')}`);
    for (const c of p.changes) lines.push(paint(`  ${changeText(shownValue(c) as Change)}`));
    for (const b of p.blocked)
      lines.push(paint(`  ✗ ${b.resource} "${b.name}": cannot be done (${b.code}): ${b.message}`));
    for (const n of notes) lines.push(paint(`  ! ${n.resource} "${n.name}": ${n.message}`));
    for (const u of p.unmanaged)
      lines.push(
        paint(
          `  · ${u.resource} ${u.resource === 'webhook' ? u.name : `"${u.name}"`} is not in the file; deleted only with --prune`,
        ),
      );
  };
  for (const w of plan.workspaces) part(workspaceText(w), w);
  if (plan.agency.changes.length || plan.agency.blocked.length || plan.agency.unmanaged.length || plan.agency.error)
    part('agency roles', plan.agency);
  const t = planTotals(plan);
  lines.push(
    t.changes === 0 && t.blocked === 0 && t.errors === 0
      ? 'No changes: the workspaces match the file.'
      : `Plan: ${t.changes} change(s) to make${t.blocked ? `, ${t.blocked} that cannot be done` : ''}${t.errors ? `, ${t.errors} part(s) that could not be read` : ''}.`,
  );
  return lines;
}
