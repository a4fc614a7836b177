import { listRecipes, type Recipe } from '../../api/recipes.js';
import { BUILDING_STATES, RECIPE_STATES } from '../../contract/recipes.js';
import type { Service } from '../../api/service.js';
import type { Context } from '../../context.js';
import { ExitError, ManyFailures } from '../../errors.js';
import { errorLines } from '../../output/errors.js';
import type { Column } from '../../output/output.js';
import { pool } from '../../fleet/pool.js';
import { workspacesOf } from '../../fleet/select.js';
import { workspaceChoice } from '../shared/workspace-choice.js';
import { collect } from '../../util/collect.js';
import { idText, jsonInteger } from '../../util/json.js';
import { fleetConcurrency } from '../shared/concurrency.js';
import type { StatusOptions } from './command.js';
import { styleState } from './shared/view.js';
import { stateText } from '../../output/recipe-text.js';
import { waitOf } from '../shared/poll.js';
import {
  agoText,
  durationText,
  faultLine,
  isTransient,
  pollUntil,
  ReadLimitError,
  WaitUnreachableError,
} from '../../util/poll.js';

/** One row per workspace and recipe (`recipes status --json` prints these). */
export interface StatusRow {
  workspace_id: unknown;
  recipe_id: unknown;
  title: string | null;
  template_id: unknown;
  state: string | null;
  degraded: boolean;
  not_delivered_count: number;
  not_delivered_reasons: string[];
  last_build_at: string | null;
  error_code: string | null;
}

function rowOf(ws: string, r: Recipe): StatusRow {
  return {
    workspace_id: jsonInteger(ws),
    recipe_id: r.recipe_id,
    title: r.title ?? null,
    template_id: r.template_id ?? null,
    state: r.state ?? null,
    degraded: r.degraded ?? false,
    not_delivered_count: (r.sources ?? []).reduce((n, s) => n + (s.not_delivered_count ?? 0), 0),
    not_delivered_reasons: r.not_delivered_reasons ?? [],
    last_build_at: r.last_build_at ?? null,
    error_code: r.error?.code ?? null,
  };
}

const columns: Array<Column<StatusRow>> = [
  { header: 'WORKSPACE', value: (r) => idText(r.workspace_id) },
  { header: 'RECIPE', value: (r) => idText(r.recipe_id) },
  // Left out, in this order, when even cut the table does not fit the window.
  { header: 'TITLE', value: (r) => r.title ?? '', drop: 3 },
  {
    header: 'STATE',
    keep: true,
    value: (r) => (r.state === null ? 'never built' : stateText({ state: r.state, degraded: r.degraded })),
    raw: (r) => r.state ?? '',
    style: (t, _r, c) => styleState(t, c),
  },
  // Piped, each value of the STATE cell has a column of its own: degraded, then what was not delivered.
  { header: 'DEGRADED', value: () => '', raw: (r) => r.degraded, pipedOnly: true },
  {
    header: 'NOT DELIVERED',
    value: (r) =>
      r.not_delivered_count > 0 || r.not_delivered_reasons.length > 0
        ? `${r.not_delivered_count} ${r.not_delivered_reasons.join(', ')}`.trim()
        : '',
    raw: (r) => r.not_delivered_count,
    drop: 2,
  },
  { header: 'REASONS', value: () => '', raw: (r) => r.not_delivered_reasons.join(','), pipedOnly: true },
  { header: 'LAST BUILD', value: (r) => r.last_build_at ?? '', drop: 1 },
  { header: 'ERROR', value: (r) => r.error_code ?? '' },
];

interface Snapshot {
  rows: StatusRow[];
  errors: Array<{ ws: string; err: unknown }>;
}

async function readAll(
  api: Service,
  workspaces: string[],
  concurrency: (workspaces: number) => number,
): Promise<Snapshot> {
  const per = await pool(workspaces, concurrency(workspaces.length), async (ws) => {
    try {
      return { ws, rows: (await collect(listRecipes(api, ws))).map((r) => rowOf(ws, r)), err: undefined };
    } catch (err) {
      return { ws, rows: [] as StatusRow[], err };
    }
  });
  return {
    rows: per.flatMap((p) => p.rows),
    errors: per.filter((p) => p.err !== undefined).map((p) => ({ ws: p.ws, err: p.err })),
  };
}

/**
 * The table of a watch: its STATE column as wide as any state it may come to show, so that
 * a redraw does not move the columns as the builds move on.
 */
const STATE_WIDTH = Math.max(
  'never built'.length,
  ...RECIPE_STATES.map((state) => stateText({ state, degraded: true }).length),
);
const watchColumns = columns.map((c) => (c.header === 'STATE' ? { ...c, minWidth: STATE_WIDTH } : c));

const keyOf = (r: StatusRow) => `${idText(r.workspace_id)}/${idText(r.recipe_id)}`;
const building = (rows: StatusRow[]) => rows.filter((r) => BUILDING_STATES.has(r.state ?? ''));
const describeRow = (r: StatusRow) =>
  `${r.state ?? 'never built'}${r.degraded ? ' (degraded)' : ''}${r.error_code ? ` ${r.error_code}` : ''}${r.not_delivered_count ? `, ${r.not_delivered_count} not delivered` : ''}`;

/**
 * `edp recipes status`: the recipes of many workspaces at a glance. `--watch` follows the builds
 * until every one has ended: the table redrawn on a terminal, one line per change elsewhere.
 */
export async function runStatus(opts: StatusOptions, ctx: Context): Promise<void> {
  const choice = workspaceChoice(ctx, opts);
  const concurrency = fleetConcurrency(ctx, opts.concurrency, 'reads');
  const wait = waitOf(ctx, opts, { flag: '--watch', given: !!opts.watch })?.polling;
  const watchCommand = () =>
    ctx.hint('recipes', 'status', ...(opts.allWorkspaces ? ['--all-workspaces'] : []), '--watch');
  const api = await ctx.api();
  const workspaces = await workspacesOf(api, choice);
  let snap = await readAll(api, workspaces, concurrency);
  const snap0 = snap;
  const redraw = !!opts.watch && ctx.output.stdoutIsTTY && !ctx.output.machine;
  // --json one array, --ndjson one row per line, piped tab-separated raw values. An empty
  // table is said only of the workspaces that were read: one that failed says why, after it.
  const listRows = async (s: Snapshot) => {
    const read = workspaces.filter((ws) => !s.errors.some((e) => e.ws === ws));
    if (read.length === 0 && !ctx.output.machine) return;
    const empty =
      s.errors.length === 0
        ? 'No recipe in these workspaces.'
        : `No recipe in workspace${read.length === 1 ? '' : 's'} ${read.join(', ')}.`;
    await ctx.output.list(s.rows, redraw ? watchColumns : columns, { empty });
  };
  const printRows = () => listRows(snap);
  const watchingLine = (s: Snapshot) =>
    `watching ${building(s.rows).length} build(s) until they end; Ctrl-C stops watching (the builds go on)`;
  // A redraw goes back up over what the last drawing and the notes after it took, and draws
  // from there, clearing below: what was on the screen before, and the scrollback, stay.
  let drawnFrom: number | undefined;
  const show = async (s: Snapshot) => {
    const up = drawnFrom === undefined ? 0 : ctx.output.rowsDrawn - drawnFrom;
    if (redraw && up > 0) ctx.output.write(`\u001b[${up}F\u001b[J`);
    drawnFrom = ctx.output.rowsDrawn;
    await listRows(s);
    // What was drawn below the table went with it: the line that says what is going on is drawn again.
    if (redraw && wait && building(s.rows).length > 0 && s !== snap0) ctx.output.info(watchingLine(s));
  };
  // Piped, --watch prints the rows once, when every build has ended; progress goes to stderr.
  if (!ctx.output.machine && (redraw || !wait)) await show(snap);
  if (wait) {
    // The first read is the snapshot above; each next one reports what changed since.
    let first = true;
    const next = async (): Promise<Snapshot> => {
      if (first) {
        first = false;
        return snap;
      }
      const read = await readAll(api, workspaces, concurrency);
      // A workspace the service did not answer for is a failed read of the wait, which the
      // rows of before stand for, rather than a workspace whose builds have ended; one whose
      // read reached the wait's bound ends the read as given up.
      const fault =
        read.errors.find((e) => e.err instanceof ReadLimitError) ?? read.errors.find((e) => isTransient(e.err));
      if (fault) throw fault.err;
      const before = new Map(snap.rows.map((r) => [keyOf(r), r]));
      const changed = read.rows.filter((r) => {
        const was = before.get(keyOf(r));
        return !was || describeRow(was) !== describeRow(r) || was.last_build_at !== r.last_build_at;
      });
      snap = read;
      if (changed.length === 0) return snap;
      if (redraw) await show(snap);
      else
        for (const r of changed)
          ctx.output.info(`workspace ${idText(r.workspace_id)} recipe ${idText(r.recipe_id)}: ${describeRow(r)}`);
      return snap;
    };
    // The same schedule as every --wait (shared/poll): pauses grow by half, up to 15 s.
    if (building(snap.rows).length > 0) ctx.output.info(watchingLine(snap));
    try {
      const running = (s: Snapshot) => `${building(s.rows).length} build(s) running`;
      await pollUntil(next, (s) => building(s.rows).length === 0, wait, {
        // The first read is the snapshot, already made: `last` is always one.
        timeout: ({ last, lastAgeMs, unanswered }) =>
          new ExitError(
            'waitTimeout',
            `${building(last!.rows).length} build(s) still running after ${durationText(wait.timeoutMs)} (read ${agoText(lastAgeMs ?? 0)}${unanswered ? '; the service did not answer the read after it' : ''}); the builds go on at the service; keep watching with \`${watchCommand()}\``,
          ),
        unreachable: ({ last, lastAgeMs, fault }) =>
          new WaitUnreachableError({
            origin: new URL(api.client.baseUrl).origin,
            what: `the status of ${workspaces.length === 1 ? `workspace ${workspaces[0]}` : `${workspaces.length} workspaces`}`,
            lastText: last === undefined ? undefined : running(last),
            lastAgeMs,
            fault,
            goesOn: 'ending the watch does not stop the builds',
            resume: `keep watching with \`${watchCommand()}\``,
          }),
        // No live line of its own: the table (or the lines of changes) stays as it was, with a note under it.
        onFault: (f) => ctx.output.info(`reading the recipes: ${faultLine(f)}`),
        onRecover: () => ctx.output.info('reading the recipes: the service answers again'),
      });
    } catch (err) {
      // Ctrl-C ends the watch, not the builds: said (the run then exits 130 quietly).
      if (ctx.signal?.aborted) ctx.output.info('stopped watching; the builds go on at the service');
      // What the rows were when the wait ended, as a script expects them.
      if (!redraw) await printRows();
      throw err;
    }
  }
  if (ctx.output.machine || (wait && !redraw)) await printRows();
  for (const e of snap.errors) ctx.output.warn(`workspace ${e.ws}: ${errorLines(e.err).join('\n  ')}`);
  if (snap.errors.length > 0) throw new ManyFailures(snap.errors.map((e) => e.err));
}
