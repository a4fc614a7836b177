import type { Context } from '../../context.js';
import { ManyFailures, NotConfirmedError, UsageError } from '../../errors.js';
import type { Column } from '../../output/output.js';
import {
  applyFailures,
  applyFleet,
  blockedRows,
  factsOf,
  planFailures,
  receivesSecrets,
  type ApplyRow,
  type FleetApplyOptions,
} from '../../fleet/apply.js';
import { applyWaves, resolveWaves, type WavesOutcome } from '../../fleet/waves.js';
import { checkMaxChanges, readLimits, reportWaves, waveText } from './waves.js';
import { parseFleetFile, readFleetFile, type FleetFile } from '../../fleet/file.js';
import {
  driftError,
  planDrift,
  readSavedPlan,
  unsetError,
  unsetVariables,
  type SavedPlan,
} from '../../fleet/saved-plan.js';
import { planFleet, planTotals, type FleetPlan } from '../../fleet/plan.js';
import { planLines, workBegunText, workspaceReadText } from '../shared/plan-text.js';
import { idText } from '../../util/json.js';
import type { StepReporter } from '../../recipes/deploy.js';
import { waitPolling } from '../shared/poll.js';
import { fleetConcurrency } from '../shared/concurrency.js';
import { requireYesOffTerminal } from '../shared/confirm.js';
import { FleetBoard, fleetStepReporter } from '../shared/fleet-progress.js';
import { rowNote } from './shared/row-notes.js';
import { stateText } from '../../output/recipe-text.js';
import { SecretsFileWriter } from '../../fleet/secrets-file.js';
import { errorJson, reportError } from '../../output/errors.js';
import { requireSecretReader, unreadSecrets } from '../webhooks/shared/secret-not-shown.js';
import type { ApplyOptions } from './command.js';
import { suggest } from '../../util/suggest.js';

/** `edp apply -f FILE`: the plan, a confirmation, then the changes, one row per workspace and resource. */
export async function runApply(opts: ApplyOptions, ctx: Context): Promise<void> {
  const limits = readLimits(opts);
  const source = await applySource(opts, ctx);
  const { saved, file, prune, sendSecrets, only } = source;
  const concurrency = fleetConcurrency(ctx, opts.concurrency, 'changes');
  const wait = { ...waitPolling(ctx, opts), describe: stateText };
  requireYesOffTerminal(ctx, opts.yes, 'apply', 'apply');
  if (saved) {
    const origin = new URL(ctx.settings.baseUrl().value).origin;
    if (origin !== saved.source.service)
      throw new UsageError(`${saved.path} was planned against ${saved.source.service}, not ${origin}`);
  }
  const secrets = opts.secretsFile === undefined ? undefined : new SecretsFileWriter(opts.secretsFile);
  secrets?.check();
  const api = await ctx.api();
  const plan = await planFleet(api, file, {
    prune,
    sendSecrets,
    only,
    env: ctx.env,
    concurrency,
    progress: (p) => ctx.output.info(workspaceReadText(p)),
  });
  if (saved) {
    const moved = planDrift(saved, plan);
    if (moved.length > 0) throw driftError(saved, moved);
  }
  for (const l of planLines(plan, ctx.output.err)) ctx.output.info(l);
  const totals = planTotals(plan);
  if (totals.changes === 0) return showNothingToDo(ctx, plan);
  checkMaxChanges(totals.changes, limits.maxChanges, !!saved);
  const waves = limits.waves && resolveWaves(limits.waves.spec, limits.waves.bounds, plan);
  // Before the question and before any change: where the new endpoints' secrets can go.
  if (receivesSecrets(plan))
    requireSecretReader(
      ctx,
      opts.secretsFile,
      'this plan creates webhook endpoints, whose secrets the service shows only once',
    );
  if (!opts.yes) await confirmApply(ctx, totals.changes, prune, waves);
  // Each recipe's steps and build states, prefixed by its workspace and template, and on a
  // terminal a live line of the deployments under way (as a fleet `recipes deploy` shows them).
  const deployments = plan.workspaces.reduce((n, w) => n + w.recipes.length, 0);
  const board = deployments > 0 ? await FleetBoard.start(ctx, deployments, 'recipes') : undefined;
  const reporter = (ws: string, name: string): StepReporter =>
    fleetStepReporter(ctx, `[${ws}] ${name}`, `${ws} ${name}`, board);
  const replan = replanCommand(opts, source);
  const run: FleetApplyOptions = {
    concurrency,
    verify: !!opts.verify,
    wait,
    reporter,
    progress: (w) => ctx.output.info(workBegunText(w)),
    deployed: (ws, name) => board?.finish(`${ws} ${name}`),
    signal: ctx.signal,
    secrets,
  };
  let rows: ApplyRow[];
  let outcome: WavesOutcome | undefined;
  try {
    if (waves) {
      outcome = await applyWaves(api, file, plan, waves, { ...run, begun: (w) => ctx.output.info(waveText(w)) });
      rows = outcome.rows;
    } else rows = await applyFleet(api, file, plan, run);
  } finally {
    board?.stop();
  }
  await showApplied(ctx, rows, replan);
  if (waves && outcome) reportWaves(ctx, waves, outcome, replan);
  // Each failure is in its row above; rows of waves not started are none.
  await endApply(ctx, rows, outcome ? outcome.failures : applyFailures(rows));
}

/** What apply applies: a fleet file (-f), or a saved plan with the file and settings it was planned with. */
interface ApplySource {
  saved: SavedPlan | undefined;
  file: FleetFile;
  prune: boolean;
  sendSecrets: boolean;
  /** the workspaces the plan is narrowed to (-w, EDP_WORKSPACE, or the saved plan's) */
  only: string[] | undefined;
  scope: ReturnType<Context['settings']['fleetScope']>;
}

/**
 * The file or saved plan to apply, read and checked before anything is sent: a saved plan keeps
 * the scope, --prune and --send-secrets it was planned with, and its `${env.…}` values are read
 * again (one unset: exit 2).
 */
async function applySource(opts: ApplyOptions, ctx: Context): Promise<ApplySource> {
  const [planPath] = opts.args;
  if ((planPath === undefined) === (opts.file === undefined))
    throw new UsageError(
      'name what to apply: a fleet file with -f/--file FILE, or a plan saved by `edp plan --out` as the argument',
    );
  const saved = planPath === undefined ? undefined : readSavedPlan(planPath);
  // A saved plan keeps the scope it was planned with: -w or EDP_WORKSPACE may only repeat it.
  const scope = ctx.settings.fleetScope();
  if (saved && (opts.prune || opts.sendSecrets || (scope && !sameIds(scope.value, saved.source.workspaces))))
    throw new UsageError(
      `${saved.path} keeps the scope, --prune and --send-secrets it was planned with: give ${opts.prune ? '--prune' : opts.sendSecrets ? '--send-secrets' : scope!.origin === 'flag' ? '-w' : 'EDP_WORKSPACE'} to \`${suggest(['plan', '-f', saved.source.file_name, '--out', saved.path])}\`, not to apply`,
    );
  if (saved) {
    const unset = unsetVariables(saved, ctx.env);
    if (unset.length > 0) throw unsetError(saved, unset);
  }
  const file = saved
    ? await parseFleetFile(saved.source.file, `plan ${saved.path}`, undefined, ctx.env)
    : await readFleetFile(opts.file!, ctx.io.stdin, ctx.env);
  return {
    saved,
    file,
    prune: saved ? saved.source.prune : !!opts.prune,
    sendSecrets: saved ? saved.source.send_secrets === true : !!opts.sendSecrets,
    only: saved ? (saved.source.workspaces ?? undefined) : scope?.value,
    scope,
  };
}

/** A plan with no change: nothing is sent; what cannot be done is still one row each. */
async function showNothingToDo(ctx: Context, plan: FleetPlan): Promise<void> {
  const rows = [
    ...plan.workspaces.flatMap((w) => blockedRows(w.workspace_id, w.blocked)),
    ...blockedRows(null, plan.agency.blocked),
  ];
  if (ctx.output.machine) ctx.output.json(rows);
  else if (rows.length > 0) await showRows(ctx, rows);
  const failures = planFailures(plan);
  if (failures.length > 0) throw new ManyFailures(failures);
}

async function confirmApply(
  ctx: Context,
  changes: number,
  prune: boolean,
  waves: unknown[] | undefined,
): Promise<void> {
  const { confirm } = await ctx.prompts();
  const ok = await confirm(
    {
      message: `Apply ${changes} change(s)${prune ? ', deletions included' : ''}${waves ? ` in ${waves.length} wave(s)` : ''}?`,
      default: false,
    },
    ctx.promptContext(),
  );
  if (!ok) throw new NotConfirmedError();
}

/** The plan command that plans the same again; EDP_WORKSPACE, when it named the scope, is still set where it is pasted. */
function replanCommand(opts: ApplyOptions, { saved, prune, sendSecrets, only, scope }: ApplySource): string {
  return suggest([
    'plan',
    '-f',
    saved ? saved.source.file_name : opts.file!,
    ...(prune ? ['--prune'] : []),
    ...(sendSecrets ? ['--send-secrets'] : []),
    ...(only && (saved || scope?.origin === 'flag') ? ['-w', only.join(',')] : []),
  ]);
}

/** The rows of what was done; at a terminal, each new endpoint's secret whole below the table. */
async function showApplied(ctx: Context, rows: ApplyRow[], replan: string): Promise<void> {
  const shown = rows.map((r) => shownRow(r, replan));
  if (ctx.output.machine) return ctx.output.json(shown);
  await showRows(ctx, shown);
  // Whole, outside the table (which a terminal's width may cut): the service shows it only once.
  for (const r of shown.filter((x) => x.secret))
    ctx.output.line(
      `secret of webhook endpoint ${idText(r.id)} (${r.name}, workspace ${idText(r.workspace_id)}), shown only now: ${r.secret}`,
    );
}

/**
 * The run's end: a secret the service shows only once must reach its reader; when it may not have
 * (part of the output was lost), the run fails naming every secret it printed, with the commands
 * that make new ones.
 */
async function endApply(ctx: Context, rows: ApplyRow[], failures: unknown[]): Promise<void> {
  const unread = await unreadSecrets(
    ctx,
    rows.filter((r) => r.secret).map((r) => ({ id: idText(r.id), workspace: idText(r.workspace_id) })),
  );
  if (unread) {
    if (failures.length === 0) throw unread;
    reportError(ctx.output, unread);
    failures.push(unread);
  }
  if (failures.length > 0) throw new ManyFailures(failures);
}

/** An apply row with its note: the facts the run learnt of it, in words. */
type ShownRow = ApplyRow & { note?: string };

/**
 * A row as printed: the error its work threw becomes the error document's `error` (status, code,
 * message, details, trace id), and its facts its note, after its secret and before its wave.
 */
function shownRow(r: ApplyRow, replan: string): ShownRow {
  const { secret, wave, ...rest } = r;
  const note = rowNote(factsOf(r), replan);
  return {
    ...rest,
    ...(r.result === 'failed' ? { error: errorJson(r.error).error } : {}),
    ...(secret === undefined ? {} : { secret }),
    ...(note === undefined ? {} : { note }),
    ...(wave === undefined ? {} : { wave }),
  };
}

const columns: Array<Column<ShownRow>> = [
  { header: 'WORKSPACE', value: (r) => (r.workspace_id === null ? 'agency' : idText(r.workspace_id)) },
  { header: 'RESOURCE', value: (r) => r.resource },
  { header: 'ID', value: (r) => (r.id === null ? '' : idText(r.id)) },
  { header: 'NAME', value: (r) => r.name },
  { header: 'ACTION', value: (r) => r.action },
  { header: 'RESULT', keep: true, value: resultOf },
  // At a terminal each note is printed whole below the table: a table fits its cells to the
  // window, and a note ends in the command to run next.
  { header: 'NOTE', value: noteOf, pipedOnly: true },
];

/**
 * The rows: piped, one tab-separated line each, the note last; at a terminal, a table, then
 * each row's note in full under it, named by workspace, resource and name (the terminal wraps
 * a long line, never cutting the command it ends with).
 */
async function showRows(ctx: Context, rows: ShownRow[]): Promise<void> {
  await ctx.output.list(rows, columns);
  if (!ctx.output.stdoutIsTTY) return;
  const noted = rows.map((r) => ({ r, note: noteOf(r) })).filter((x) => x.note !== '');
  if (noted.length === 0) return;
  ctx.output.line();
  for (const { r, note } of noted)
    ctx.output.line(
      `${r.workspace_id === null ? 'agency' : `workspace ${idText(r.workspace_id)}`}, ${r.resource} ${r.name}: ${note}`,
    );
}

/** ok rows show the state reached; others what went wrong. */
function resultOf(r: ShownRow): string {
  if (r.result === 'ok' && r.state) return r.state;
  if (r.result === 'degraded') return 'ready_to_work, degraded';
  return r.result;
}

function noteOf(r: ShownRow): string {
  const err = r.error as { code?: string | null; message?: string } | null;
  const parts = [err ? `${err.code ? `${err.code}: ` : ''}${err.message ?? ''}` : '', r.note ?? ''];
  return parts.filter(Boolean).join('; ');
}

/** Whether a scope names the same workspaces as a saved plan's (null: the whole file). */
function sameIds(ids: string[], saved: string[] | null | undefined): boolean {
  if (!saved) return false;
  return ids.length === saved.length && [...ids].sort().join() === [...saved].sort().join();
}
