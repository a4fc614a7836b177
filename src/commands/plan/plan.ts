import type { Context } from '../../context.js';
import { ExitError, ManyFailures } from '../../errors.js';
import { planFailures } from '../../fleet/apply.js';
import { readFleetFile } from '../../fleet/file.js';
import { planFleet, planJson, planLines, planTotals } from '../../fleet/plan.js';
import { fleetConcurrency } from '../shared/concurrency.js';
import { fleetScope } from '../../fleet/select.js';
import type { PlanOptions } from './command.js';

/** `edp plan -f FILE`: reads every workspace in scope (bounded concurrency) and sends no write. */
export async function runPlan(opts: PlanOptions, ctx: Context): Promise<void> {
  const file = await readFleetFile(opts.file, ctx.io.stdin);
  const concurrency = fleetConcurrency(ctx);
  const only = fleetScope(ctx);
  const api = await ctx.api();
  const plan = await planFleet(api, file, {
    prune: !!opts.prune,
    only,
    concurrency,
    progress: (t) => ctx.output.info(t),
  });
  if (ctx.output.machine) ctx.output.json(planJson(plan));
  else for (const l of planLines(plan)) ctx.output.line(l);
  // Each failure is in the plan printed above.
  const failures = planFailures(plan);
  if (failures.length > 0) throw new ManyFailures(failures);
  if (opts.detailedExitcode && planTotals(plan).changes > 0)
    throw new ExitError('changesPending', 'changes are pending', { silent: true });
}
