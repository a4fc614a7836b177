import type { Context } from '../../context.js';
import { ExitCode } from '../../errors.js';
import { errorLines } from '../../output/errors.js';
import { planCode } from '../../fleet/apply.js';
import { parseFleetFile, type FleetFile } from '../../fleet/file.js';
import { changeText, planFleet, planJson, planTotals, type FleetPlan } from '../../fleet/plan.js';
import { readDocument } from '../../util/document.js';
import type { Opts } from '../app.js';

export async function readFleetFile(ctx: Context, opts: Opts): Promise<FleetFile> {
  const file = String(opts.file);
  return parseFleetFile(await readDocument(file, ctx.io.stdin, '--file'), `--file ${file}`);
}

/** Reads only: plan, doctor and status read more workspaces at once by default than a deploy changes. */
export const DEFAULT_READ_CONCURRENCY = 8;

/**
 * Workspaces worked on at once: --concurrency, EDP_CONCURRENCY, the profile's setting, then the
 * default (4 for apply, which writes; 8 for the commands that only read).
 */
export function concurrencyOf(ctx: Context, reads = false): number {
  if (reads && ctx.setting('concurrency').source === 'default') return DEFAULT_READ_CONCURRENCY;
  return ctx.concurrency();
}

/** The plan for a person: per workspace, then the agency's roles, then a summary line. */
export function planLines(plan: FleetPlan): string[] {
  const lines: string[] = [];
  const part = (title: string, p: FleetPlan['agency'] | FleetPlan['workspaces'][number]) => {
    if (!p.error && p.changes.length === 0 && p.blocked.length === 0 && p.unmanaged.length === 0) {
      lines.push(`${title}: no change`);
      return;
    }
    lines.push(`${title}:`);
    if (p.error) lines.push(`  cannot be read: ${errorLines(p.error).join('\n    ')}`);
    for (const c of p.changes) lines.push(`  ${changeText(c)}`);
    for (const b of p.blocked) lines.push(`  ✗ ${b.resource} "${b.name}": cannot be done (${b.code}): ${b.message}`);
    for (const u of p.unmanaged) lines.push(`  · ${u.resource} ${u.resource === 'webhook' ? u.name : `"${u.name}"`} is not in the file; deleted only with --prune`);
  };
  for (const w of plan.workspaces) part(`workspace ${w.workspace_id}`, w);
  if (plan.agency.changes.length || plan.agency.blocked.length || plan.agency.unmanaged.length || plan.agency.error) part('agency roles', plan.agency);
  const t = planTotals(plan);
  lines.push(
    t.changes === 0 && t.blocked === 0 && t.errors === 0
      ? 'No changes: the workspaces match the file.'
      : `Plan: ${t.changes} change(s) to make${t.blocked ? `, ${t.blocked} that cannot be done` : ''}${t.errors ? `, ${t.errors} part(s) that could not be read` : ''}.`,
  );
  return lines;
}

/** `edp plan -f FILE`: reads every workspace in scope (bounded concurrency) and sends no write. */
export async function runPlan(ctx: Context, _a: unknown[], opts: Opts): Promise<number> {
  const file = await readFleetFile(ctx, opts);
  const concurrency = concurrencyOf(ctx, true);
  const api = await ctx.api();
  const plan = await planFleet(api, file, { prune: !!opts.prune, concurrency, progress: (t) => ctx.output.info(t) });
  if (ctx.output.machine) ctx.output.json(planJson(plan));
  else for (const l of planLines(plan)) ctx.output.line(l);
  const code = planCode(plan);
  if (code !== 0) return code;
  return opts.detailedExitcode && planTotals(plan).changes > 0 ? ExitCode.changesPending : ExitCode.ok;
}
