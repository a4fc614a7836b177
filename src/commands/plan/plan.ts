import { writeFileSync } from 'node:fs';
import type { Context } from '../../context.js';
import { ExitError, ManyFailures, UsageError } from '../../errors.js';
import { planFailures } from '../../fleet/apply.js';
import { parseFleetFile } from '../../fleet/file.js';
import { planFleet, planTotals } from '../../fleet/plan.js';
import { planLines, workspaceReadText } from '../shared/plan-text.js';
import { planJson } from './json.js';
import { planMarkdown } from './markdown.js';
import { savedPlanDocument } from '../../fleet/saved-plan.js';
import { fleetScope } from '../shared/workspace-choice.js';
import { parseDocument, readSource } from '../../util/document.js';
import { stringifyJson } from '../../util/json.js';
import { fleetConcurrency } from '../shared/concurrency.js';
import type { PlanOptions } from './command.js';
import { checkOutputFile } from '../../util/output-file.js';
import { suggest } from '../../util/suggest.js';
import { formatOption } from '../shared/format.js';

const FORMATS = ['text', 'markdown', 'json'] as const;

/** `edp plan -f FILE`: reads every workspace in scope (bounded concurrency) and sends no write. */
export async function runPlan(opts: PlanOptions, ctx: Context): Promise<void> {
  const format = formatOption(opts.format, FORMATS, ctx, { text: 'text', json: 'json' });
  if (opts.out !== undefined && opts.out.trim() === '') throw new UsageError('--out needs a file name');
  // Before the file is read and every workspace with it: where the plan goes must take it.
  if (opts.out !== undefined) checkOutputFile(opts.out, '--out');
  const source = await readSource(opts.file, ctx.io.stdin, '--file');
  const doc = await parseDocument(source.text, '--file', source.name);
  const file = await parseFleetFile(doc, '--file', source, ctx.env);
  const concurrency = fleetConcurrency(ctx, opts.concurrency, 'reads');
  const only = fleetScope(ctx);
  const api = await ctx.api();
  const plan = await planFleet(api, file, {
    prune: !!opts.prune,
    sendSecrets: !!opts.sendSecrets,
    only,
    env: ctx.env,
    concurrency,
    progress: (p) => ctx.output.info(workspaceReadText(p)),
  });
  const document = planJson(plan);
  if (format === 'json') ctx.output.json(document);
  else if (format === 'markdown') ctx.output.write(planMarkdown(plan));
  else for (const l of planLines(plan, ctx.output.out)) ctx.output.line(l);
  if (opts.out !== undefined) {
    const saved = savedPlanDocument(document, plan, {
      file: doc,
      file_name: opts.file,
      prune: !!opts.prune,
      ...(opts.sendSecrets ? { send_secrets: true } : {}),
      workspaces: only ?? null,
      service: new URL(ctx.settings.baseUrl().value).origin,
    });
    writeFileSync(opts.out, `${stringifyJson(saved, 2)}\n`);
    ctx.output.info(`saved the plan to ${opts.out}; \`${suggest(['apply', opts.out])}\` carries out exactly this plan`);
  }
  // Each failure is in the plan printed above.
  const failures = planFailures(plan);
  if (failures.length > 0) throw new ManyFailures(failures);
  if (opts.detailedExitcode && planTotals(plan).changes > 0)
    throw new ExitError('changesPending', 'changes are pending', { silent: true });
}
