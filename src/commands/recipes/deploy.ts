import type { Service } from '../../api/service.js';
import { listWorkspaces } from '../../api/workspaces.js';
import type { Context } from '../../context.js';
import { ExitError, ManyFailures, UsageError } from '../../errors.js';
import { errorJson, errorLines } from '../../output/errors.js';
import type { Column } from '../../output/output.js';
import { idText, jsonInteger } from '../../util/json.js';
import type { DeployOptions } from './command.js';
import { styleState } from './shared/view.js';
import { errorText, stateText } from '../../output/recipe-text.js';
import { DEFAULT_POLL_INTERVAL, DEFAULT_WAIT_TIMEOUT } from '../../config/defaults.js';
import { waitPolling } from '../shared/poll.js';
import { accountNamesFor, hasNotDelivered, rebuildLine, sourceEntryLines } from './shared/not-delivered.js';
import { confirmDeploy, equivalentCommand, promptMissing, summaryLines } from './shared/deploy-prompts.js';
import { missingInputs, specFromOptions } from './shared/deploy-spec.js';
import type { DeploySpec } from '../../recipes/spec.js';
import {
  deployToWorkspace,
  planWorkspace,
  STEPS,
  resolveTemplate,
  type DeployOutcome,
  type StepReporter,
} from '../../recipes/deploy.js';
import { collect } from '../../util/collect.js';
import { fleetSized } from '../shared/concurrency.js';
import { pool } from '../../fleet/pool.js';
import { elapsedText, FleetBoard, fleetStepReporter } from '../shared/fleet-progress.js';
import { interruptedNote, stepLabel, stepReporter } from '../shared/deploy-steps.js';

/** One row per workspace; `--json` prints these objects (docs/guide.md, Automated recipes). */
export interface DeployRow {
  workspace_id: unknown;
  recipe_id: unknown;
  datatable_id: unknown;
  state: string | null;
  degraded: boolean | null;
  not_delivered_reasons: string[];
  error: unknown;
}

/**
 * A read whose answer holds for every workspace (the template is the agency's), made once and
 * shared. A failure is not shared: the workspace that made the read gets it, and each workspace
 * that was waiting on it reads for itself, so one failed read cannot fail the whole fleet.
 */
export function sharedRead<T>(read: (ws: string) => Promise<T>): (ws: string) => Promise<T> {
  let shared: Promise<T> | undefined;
  return async (ws) => {
    for (;;) {
      const mine = shared === undefined;
      const attempt = (shared ??= read(ws));
      try {
        return await attempt;
      } catch (err) {
        if (shared === attempt) shared = undefined;
        if (mine) throw err;
      }
    }
  };
}

/** The flags besides the inputs that the equivalent command repeats: those that differ from their defaults. */
function extraFlags(opts: DeployOptions): string[] {
  const out: string[] = [];
  if (opts.waitTimeout !== undefined && opts.waitTimeout !== DEFAULT_WAIT_TIMEOUT)
    out.push('--wait-timeout', opts.waitTimeout);
  if (opts.pollInterval !== undefined && opts.pollInterval !== DEFAULT_POLL_INTERVAL)
    out.push('--poll-interval', opts.pollInterval);
  if (opts.failOnDegraded) out.push('--fail-on-degraded');
  if (opts.rebuild) out.push('--rebuild');
  if (opts.dryRun) out.push('--dry-run');
  return out;
}

/** How one workspace's deployment failed (its exit code's cause), or undefined when it did not. */
function outcomeFailure(ws: string, outcome: DeployOutcome, failOnDegraded: boolean): unknown {
  if (outcome.error) return outcome.error;
  const r = outcome.recipe;
  if (r?.state === 'failed')
    return new ExitError('buildFailed', `workspace ${ws}: the build of recipe ${idText(r.recipe_id)} failed`);
  if (r?.state === 'ready_to_work' && r.degraded && failOnDegraded)
    return new ExitError('degraded', `workspace ${ws}: recipe ${idText(r.recipe_id)} is degraded`);
  return undefined;
}

function rowOf(ws: string, outcome: DeployOutcome): DeployRow {
  const r = outcome.recipe;
  return {
    workspace_id: jsonInteger(ws),
    recipe_id: r?.recipe_id ?? null,
    datatable_id: r?.datatable_id ?? null,
    state: r?.state ?? null,
    degraded: r ? (r.degraded ?? false) : null,
    not_delivered_reasons: r?.not_delivered_reasons ?? [],
    // the build error object when the build failed, else what stopped the deployment
    error: outcome.error ? errorJson(outcome.error).error : (r?.error ?? null),
  };
}

/**
 * Step progress. One workspace: a spinner on a terminal, whose text follows the build's state
 * and the time it has taken; elsewhere one line per state change. A fleet: one line per finished
 * step and per state change, prefixed by the workspace, so that a long build is never silent,
 * and on a terminal the board's live line.
 */
function reporterFor(ctx: Context, ws: string, fleet: boolean, board?: FleetBoard): StepReporter {
  if (fleet) return fleetStepReporter(ctx, `[${ws}]`, ws, board);
  const c = ctx.output.err;
  const live = !!ctx.io.stderr.isTTY && !ctx.output.flags.quiet;
  return stepReporter(async (n, text) => {
    const started = ctx.now();
    const since = () => elapsedText(ctx.now() - started);
    const label = (t: string) => stepLabel(n, t);
    const spinner = await ctx.output.spinner(label(text));
    let current = text;
    let last: string | undefined;
    // On a terminal the elapsed time keeps moving between state changes.
    const timer = live ? setInterval(() => spinner.update(label(`${current} (${since()})`)), 1000) : undefined;
    timer?.unref();
    const done = () => clearInterval(timer);
    return {
      update: (t) => {
        current = t;
        if (live) spinner.update(label(`${t} (${since()})`));
        else if (t !== last) {
          last = t;
          ctx.output.info(`${c.cyan('…')} ${label(`${t} (${since()})`)}`);
        }
      },
      succeed: (t) => (done(), spinner.succeed(label(t))),
      warn: (t) => (done(), spinner.warn(label(t))),
      fail: (t) => (done(), spinner.fail(label(t))),
    };
  });
}

async function workspacesOf(api: Service, spec: DeploySpec): Promise<string[]> {
  if (spec.workspaces !== 'all') return spec.workspaces ?? [];
  const out = (await collect(listWorkspaces(api))).map((w) => idText(w.id));
  return out;
}

/**
 * `edp recipes deploy`: the contract's deployment sequence in each workspace, concurrently for
 * a fleet, ending with one row per workspace. Safe to run again: it adopts the existing recipe,
 * appends nothing twice and joins a build that is running instead of starting another.
 */
export async function runDeploy(opts: DeployOptions, ctx: Context): Promise<void> {
  const spec = await specFromOptions(ctx, opts);
  const wait = { ...waitPolling(ctx, opts), describe: stateText };
  const missing = missingInputs(spec);
  if (missing.length > 0 && !ctx.interactive)
    throw new UsageError(
      `missing input; pass ${missing.join(', ')} or --file SPEC (prompts only on a terminal)${spec.workspaces === undefined ? ctx.settings.unusedDefaultNote() : ''}`,
    );
  const api = await ctx.api();
  if (missing.length > 0) await askMissing(ctx, api, spec, opts);
  const workspaces = await workspacesOf(api, spec);
  checkFleet(ctx, spec, workspaces);
  const templateFor = sharedRead((ws) => resolveTemplate(api, ws, spec.template!));
  const concurrency = spec.concurrency ?? fleetSized(workspaces.length);
  if (opts.dryRun) {
    const plans = await pool(workspaces, concurrency, async (ws) => {
      try {
        return await planWorkspace(api, ws, spec, templateFor, !!opts.rebuild);
      } catch (err) {
        return { workspace_id: ws, error: err };
      }
    });
    return showPlans(ctx, plans);
  }
  const fleet = workspaces.length > 1;
  const board = fleet ? await FleetBoard.start(ctx, workspaces.length, 'workspaces') : undefined;
  let outcomes: DeployOutcome[];
  try {
    outcomes = await pool(workspaces, concurrency, async (ws) => {
      const outcome = await deployToWorkspace(
        api,
        ws,
        spec,
        templateFor,
        { wait, rebuild: !!opts.rebuild },
        reporterFor(ctx, ws, fleet, board),
      );
      board?.finish(ws);
      return outcome;
    });
  } finally {
    board?.stop();
  }
  if (ctx.signal?.aborted) {
    // Ctrl-C ends the waiting, not the builds: each workspace says what may have landed.
    for (const [i, o] of outcomes.entries())
      ctx.output.warn(`workspace ${workspaces[i]}: ${interruptedNote(o, workspaces[i]!)}`);
    throw ctx.signal.reason ?? new Error('interrupted');
  }
  await showOutcomes(ctx, api, workspaces, outcomes, !!opts.failOnDegraded);
}

/** The inputs missing from the flags and the file, asked for at a terminal, then the same command without prompts. */
async function askMissing(ctx: Context, api: Service, spec: DeploySpec, opts: DeployOptions): Promise<void> {
  const answers = await promptMissing(ctx, api, spec, { fromFile: opts.file !== undefined });
  for (const line of summaryLines(spec, answers)) ctx.output.info(line);
  const command = equivalentCommand(spec, extraFlags(opts));
  if (!opts.dryRun) {
    try {
      await confirmDeploy(ctx);
    } catch (err) {
      ctx.output.info(`Nothing was written. The same deployment without prompts:\n${command}`);
      throw err;
    }
  }
  ctx.output.info(`The same without prompts:\n${command}`);
}

/** What a deployment to several workspaces cannot take (a connection id), and what it warns of (internal account ids). */
function checkFleet(ctx: Context, spec: DeploySpec, workspaces: string[]): void {
  if (workspaces.length === 0) throw new UsageError('no workspace to deploy to');
  if (workspaces.length === 1) return;
  if (spec.sources.some((s) => s.connection !== undefined)) {
    throw new UsageError(
      "connection ids belong to one workspace; for several workspaces leave out --connection (each workspace's connection is found) ",
    );
  }
  if (spec.sources.some((s) => s.accounts.some((a) => /^\d+$/.test(a)))) {
    ctx.output.warn(
      'internal account ids differ between workspaces; name accounts by remote:ID to deploy the same accounts everywhere',
    );
  }
}

type Plan = Awaited<ReturnType<typeof planWorkspace>> | { workspace_id: string; error: unknown };

/** `--dry-run`: each workspace's plan (the writes it would send), or why it could not be planned. */
function showPlans(ctx: Context, plans: Plan[]): void {
  const failed: unknown[] = [];
  if (ctx.output.machine) {
    ctx.output.json(
      plans.map((p) =>
        'error' in p
          ? { workspace_id: jsonInteger(p.workspace_id), ...errorJson(p.error) }
          : { ...p, workspace_id: jsonInteger(p.workspace_id) },
      ),
    );
  }
  for (const p of plans) {
    if ('error' in p) {
      failed.push(p.error);
      if (!ctx.output.machine)
        ctx.output.line(`workspace ${p.workspace_id}: cannot plan: ${errorLines(p.error).join('\n  ')}`);
      continue;
    }
    if (ctx.output.machine) continue;
    ctx.output.line(
      `workspace ${p.workspace_id}: ${p.recipe_id === null ? 'new recipe' : `adopts recipe ${idText(p.recipe_id)}`} from template ${idText(p.template_id)}`,
    );
    if (p.requests.length === 0) ctx.output.line('  nothing to send: configured and built');
    for (const r of p.requests)
      ctx.output.line(`  ${r.method} ${r.path}${r.body !== undefined ? ` ${JSON.stringify(r.body)}` : ''}`);
  }
  ctx.output.info('Dry run: no write was sent.');
  // The exit code a real run would end with for the same cause (5 for an account not found, …).
  if (failed.length > 0) throw new ManyFailures(failed, `${failed.length} workspace(s) could not be planned`);
}

/** One row per workspace (a table, or JSON), what its builds left out, and the failures, which set the exit code. */
async function showOutcomes(
  ctx: Context,
  api: Service,
  workspaces: string[],
  outcomes: DeployOutcome[],
  failOnDegraded: boolean,
): Promise<void> {
  const rows = workspaces.map((ws, i) => rowOf(ws, outcomes[i]!));
  if (ctx.output.machine) ctx.output.json(rows);
  else {
    await showTable(ctx, rows, outcomes, failOnDegraded);
    await explainNotDelivered(ctx, api, workspaces, outcomes);
  }
  const failures = outcomes
    .map((o, i) => outcomeFailure(workspaces[i]!, o, failOnDegraded))
    .filter((f) => f !== undefined);
  if (failures.length === 0) return;
  // Each failed workspace with what failed: a step's error (whatever state an adopted recipe is
  // in), the build, or a degraded build under --fail-on-degraded.
  const which = outcomes
    .map((o, i) => ({ o, ws: workspaces[i]!, row: rows[i]! }))
    .filter(({ o, ws }) => outcomeFailure(ws, o, failOnDegraded) !== undefined)
    .map(({ o, ws, row }) => `${ws} (${o.error ? `step ${o.step}/${STEPS}: ` : ''}${resultWord(row, o)})`);
  ctx.output.warn(`${failures.length} of ${workspaces.length} workspace(s) failed: ${which.join(', ')}`);
  // Each error was printed once, at the step that failed; with --quiet steps are silent, so here.
  for (const [i, o] of outcomes.entries()) {
    if (o.error && !ctx.output.machine && ctx.output.flags.quiet)
      ctx.output.warn(`workspace ${workspaces[i]}: ${errorLines(o.error).join('\n  ')}`);
  }
  // One failure keeps its own code (7, 8, 9, 5, …); mixed failures are 1.
  throw new ManyFailures(failures);
}

/** The rows for a person: the recipe's state in words, and the result. */
async function showTable(
  ctx: Context,
  rows: DeployRow[],
  outcomes: DeployOutcome[],
  failOnDegraded: boolean,
): Promise<void> {
  type Line = { row: DeployRow; result: string };
  const lines: Line[] = rows.map((row, i) => ({ row, result: resultText(outcomes[i]!, failOnDegraded) }));
  const columns: Array<Column<Line>> = [
    { header: 'WORKSPACE', value: (l) => idText(l.row.workspace_id) },
    { header: 'RECIPE', value: (l) => idText(l.row.recipe_id) },
    { header: 'DATA TABLE', value: (l) => idText(l.row.datatable_id) },
    {
      header: 'STATE',
      keep: true,
      value: (l) =>
        l.row.recipe_id === null ? '' : stateText({ state: l.row.state, degraded: l.row.degraded ?? false }),
      raw: (l) => l.row.state,
      style: (t, _l, c) => styleState(t, c),
    },
    { header: 'NOT DELIVERED', value: (l) => l.row.not_delivered_reasons.join(', ') },
    // Piped, a word a script can compare: ok, degraded, build_failed, or the error's code.
    {
      header: 'RESULT',
      keep: true,
      value: (l) => l.result,
      raw: (l) => resultWord(l.row, outcomes[rows.indexOf(l.row)]!),
    },
  ];
  await ctx.output.list(lines, columns);
}

/**
 * After the summary: for each workspace whose build left accounts out, name them (title and
 * remote id), say what each reason means and what to run next. Names are read only here.
 */
async function explainNotDelivered(
  ctx: Context,
  api: Service,
  workspaces: string[],
  outcomes: DeployOutcome[],
): Promise<void> {
  for (const [i, o] of outcomes.entries()) {
    const r = o.recipe;
    if (!r || !hasNotDelivered(r)) continue;
    const ws = workspaces[i]!;
    const names = await accountNamesFor(api, ws, r);
    ctx.output.warn(
      `workspace ${ws}: recipe ${idText(r.recipe_id)} was built without some accounts (${(r.not_delivered_reasons ?? []).join(', ') || 'reasons not given'})`,
    );
    for (const s of r.sources ?? []) {
      const lines = sourceEntryLines(r, s, names, ws);
      if (lines.length === 0) continue;
      ctx.output.info(
        `  ${s.data_source}: ${s.status}, ${s.not_delivered_count ?? s.not_delivered?.length ?? 0} not delivered`,
      );
      for (const line of lines)
        if (line.command) ctx.output.info(`  ${line.text}`);
        else ctx.output.prose(`  ${line.text}`, 'stderr');
    }
    ctx.output.info(`  ${rebuildLine(r, ws)}`);
  }
}

/** The result as a script reads it from piped rows: `ok`, `degraded`, `build_failed`, or the error's code. */
function resultWord(row: DeployRow, outcome: DeployOutcome): string {
  if (outcome.error) return errorJson(outcome.error).error.code ?? 'error';
  if (row.state === 'failed') return 'build_failed';
  if (row.degraded) return 'degraded';
  return 'ok';
}

function resultText(outcome: DeployOutcome, failOnDegraded: boolean): string {
  // The error itself was printed once, in full, at the step that failed (or after the table with --quiet).
  if (outcome.error) return 'error (shown above)';
  const r = outcome.recipe;
  if (r?.state === 'failed') return `build failed: ${errorText(r.error)}`;
  if (r?.degraded) return failOnDegraded ? 'degraded (--fail-on-degraded)' : 'ready, degraded';
  return 'ok';
}
