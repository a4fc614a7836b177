import type { Context } from '../../context.js';
import { ExitError, InterruptedError, ManyFailures, NotConfirmedError, UsageError } from '../../errors.js';
import {
  actOnBulkItems,
  idsNotFound,
  nounOf,
  readBulkItems,
  unreadRows,
  type BulkAction,
  type BulkItem,
  type BulkRow,
  type BulkSelection,
} from '../../fleet/bulk.js';
import { workspacesOf } from '../../fleet/select.js';
import { errorJson, errorLines } from '../../output/errors.js';
import type { Column, Spinner } from '../../output/output.js';
import { idText, jsonInteger } from '../../util/json.js';
import type { Service } from '../../api/service.js';
import { parseId } from '../../util/validate.js';
import { fleetConcurrency } from './concurrency.js';
import { requireYesOffTerminal } from './confirm.js';
import { parseNames } from './names.js';
import { parseName } from './options.js';
import type { BulkFlags } from './flags.js';
import { workspaceChoice } from './workspace-choice.js';

/**
 * The bulk form of a verb that acts on one item (`extracts run ID`, `recipes build ID`, …):
 * several ids, `-w IDS` or `--all-workspaces`, `--failed` or a verb's selectors. The items are
 * read in every workspace first, then a person at a terminal confirms the count (`--yes`
 * elsewhere), then each is acted on, with a live line per workspace at a terminal, and a
 * summary: one row per item (workspace, id, title, outcome, detail).
 */

/** How each action reads: the question's verb, and the command's words. */
const WORDS: Record<BulkAction, { ask: string; command: string; plural: string }> = {
  'extracts.run': { ask: 'Run', command: 'extracts run', plural: 'extracts' },
  'extracts.pause': { ask: 'Pause', command: 'extracts pause', plural: 'extracts' },
  'extracts.unpause': { ask: 'Unpause', command: 'extracts unpause', plural: 'extracts' },
  'loads.run': { ask: 'Run', command: 'loads run', plural: 'loads' },
  'loads.pause': { ask: 'Pause', command: 'loads pause', plural: 'loads' },
  'loads.unpause': { ask: 'Unpause', command: 'loads unpause', plural: 'loads' },
  'recipes.build': { ask: 'Build', command: 'recipes build', plural: 'recipes' },
  'recipes.resetup': { ask: 'Resetup', command: 'recipes resetup', plural: 'recipes' },
  'accounts.enable': { ask: 'Enable extraction for', command: 'accounts enable', plural: 'accounts' },
  'accounts.disable': { ask: 'Disable extraction for', command: 'accounts disable', plural: 'accounts' },
};

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * Whether a verb runs in its bulk form: anything but its one-item form (`single`: one id, or for
 * accounts a connection and its account ids) in one workspace, with no --failed, no selector,
 * no --all-workspaces and no list of workspaces. The one-item form is the verb's own, unchanged.
 */
export function bulkForm(ctx: Context, opts: BulkFlags, single: boolean, selected: boolean): boolean {
  if (opts.allWorkspaces || opts.failed || selected || !single) return true;
  try {
    const scope = ctx.settings.workspaceScope({});
    return scope !== undefined && scope.value !== 'all' && scope.value.length > 1;
  } catch {
    // The one-item form says what is wrong with the workspace, as it always has.
    return false;
  }
}

/** Ids given as separate words, comma-separated lists, or both; each once. */
export function idWords(words: string[], name: string): string[] {
  const raw = words
    .flatMap((v) => v.split(','))
    .map((s) => s.trim())
    .filter(Boolean);
  return [...new Set(raw.map((v) => parseId(v, name)))];
}

/** `--data-source a,b`, checked; undefined when not given. */
export function dataSourcesOf(value: string | undefined): string[] | undefined {
  return value === undefined ? undefined : parseNames(value, '--data-source').map((n) => parseName(n, '--data-source'));
}

export interface BulkRequest {
  action: BulkAction;
  /** item ids, checked */
  ids: string[];
  /** the verb's own selectors (data source, state, …), checked */
  selection: Omit<BulkSelection, 'ids' | 'failed'>;
  /** flags of the one-item form that have no meaning here (`--wait`): refused, naming them */
  refused?: Array<string | undefined> | undefined;
  /** why, for the refusal */
  refusedWhy?: string | undefined;
  range?: { from: string; to: string } | undefined;
}

/** A row as printed (`--json`: an array of these). */
export interface BulkRowShown {
  workspace_id: unknown;
  id: unknown;
  title: string;
  outcome: string;
  detail: string;
  /** the error document's `error` of a row that did not reach its goal */
  error: unknown;
}

export async function runBulk(ctx: Context, opts: BulkFlags, req: BulkRequest): Promise<void> {
  const words = WORDS[req.action];
  const refused = (req.refused ?? []).filter((f): f is string => f !== undefined);
  if (refused.length > 0)
    throw new UsageError(
      `${refused.join(', ')} ${refused.length === 1 ? 'goes' : 'go'} with one ${nounOf(req.action)} only${req.refusedWhy ? `: ${req.refusedWhy}` : ''}`,
    );
  const scope = workspaceChoice(ctx, opts);
  const concurrency = fleetConcurrency(ctx, opts.concurrency, 'changes');
  // Before any request, as apply: off a terminal nobody can be asked.
  requireYesOffTerminal(ctx, opts.yes, `${words.command} in bulk`, `${words.ask.toLowerCase()} them`);
  const selection: BulkSelection = {
    ...req.selection,
    ids: req.ids.length > 0 ? req.ids : undefined,
    failed: !!opts.failed,
  };
  const api = await ctx.api();
  const workspaces = await workspacesOf(api, scope);
  const live = await LiveLine.start(ctx, `reading ${count(workspaces.length, 'workspace', 'workspaces')}`);
  let readCount = 0;
  const read = await readBulkItems(api, req.action, workspaces, selection, {
    concurrency: concurrency(workspaces.length),
    read: () => live.update(`reading workspaces: ${++readCount}/${workspaces.length}`),
  }).finally(() => live.stop());
  // Stopped while reading (Ctrl-C, or the output gone before any change): nothing was sent.
  if (ctx.signal?.aborted) throw ctx.signal.reason;
  const untold = read.reduce((n, w) => n + w.untold, 0);
  if (untold > 0)
    ctx.output.warn(
      `${count(untold, nounOf(req.action), words.plural)} left out: the service's answer does not say how ${untold === 1 ? 'its' : 'their'} last run ended`,
    );
  const early = unreadRows(read, idsNotFound(selection, read), nounOf(req.action));
  for (const r of early.filter((x) => x.outcome === 'failed'))
    ctx.output.warn(`workspace ${r.workspace} could not be read: ${errorLines(r.error).join(' ')}`);
  const chosen = read.filter((w) => w.items.length > 0);
  const total = chosen.reduce((n, w) => n + w.items.length, 0);
  const what = `${count(total, nounOf(req.action), words.plural)} in ${count(chosen.length, 'workspace', 'workspaces')}`;
  let rows: BulkRow[] = [];
  if (total === 0) ctx.output.info(`nothing to ${words.ask.toLowerCase()}: no ${words.plural} matched`);
  else {
    if (!opts.yes) {
      const { confirm } = await ctx.prompts();
      const ok = await confirm({ message: `${words.ask} ${what}?`, default: false }, ctx.promptContext());
      if (!ok) throw new NotConfirmedError();
    }
    rows = await act(ctx, api, req, read, chosen.length, concurrency(chosen.length));
  }
  const all = [...early, ...rows];
  const shown = all.map(shownRow);
  if (ctx.output.flags.ndjson || (!ctx.output.machine && shown.length > 0)) await ctx.output.list(shown, columns);
  else if (ctx.output.machine) ctx.output.json(shown);
  const failures = all.filter((r) => r.outcome !== 'ok').map((r) => r.error);
  if (failures.length > 0 && !ctx.output.machine)
    ctx.output.warn(
      `${failures.length} of ${count(all.length, nounOf(req.action), words.plural)} did not succeed: their rows say why; \`${readBack(ctx, req.action)}\` reads one back`,
    );
  if (failures.length > 0) throw new ManyFailures(failures);
}

/** The writes, with a live line of the workspaces under way at a terminal and a line per workspace as it ends. */
async function act(
  ctx: Context,
  api: Service,
  req: BulkRequest,
  read: Awaited<ReturnType<typeof readBulkItems>>,
  workspaces: number,
  concurrency: number,
): Promise<BulkRow[]> {
  const words = WORDS[req.action];
  const c = ctx.output.err;
  const live = await LiveLine.start(ctx, `${words.command}: 0/${workspaces} workspaces done`);
  const under = new Map<string, string>();
  let done = 0;
  const draw = () =>
    live.update(
      `${words.command}: ${done}/${workspaces} workspaces done${under.size > 0 ? `; ${[...under].map(([ws, t]) => `[${ws}] ${t}`).join(' · ')}` : ''}`,
    );
  try {
    return await actOnBulkItems(api, req.action, read, {
      concurrency,
      range: req.range,
      signal: ctx.signal,
      begun: (ws: string, i: BulkItem) => {
        under.set(ws, `${nounOf(req.action)} ${i.id}`);
        draw();
      },
      ended: (ws: string, rows: BulkRow[]) => {
        done++;
        under.delete(ws);
        draw();
        const bad = rows.filter((r) => r.outcome !== 'ok').length;
        const n = count(rows.length, nounOf(req.action), words.plural);
        ctx.output.info(
          bad === 0
            ? `${c.dim(`[${ws}]`)} ${c.green('✓')} ${n}: ${[...new Set(rows.map((r) => r.state))].join(', ')}`
            : `${c.dim(`[${ws}]`)} ${c.red('✗')} ${bad} of ${n} did not succeed`,
        );
      },
    });
  } finally {
    live.stop();
  }
}

/** The command that reads an item back, in its workspace. */
function readBack(ctx: Context, action: BulkAction): string {
  if (nounOf(action) === 'account') return ctx.hint('accounts', 'list', '--connection', 'ID', '-w', 'WORKSPACE');
  return ctx.hint(action.split('.')[0]!, 'get', 'ID', '-w', 'WORKSPACE');
}

function shownRow(r: BulkRow): BulkRowShown {
  return {
    workspace_id: r.workspace === '' ? null : jsonInteger(r.workspace),
    id: r.id === '' ? null : r.rawId,
    title: r.title,
    outcome: r.outcome,
    detail: detailOf(r),
    error: r.outcome === 'ok' ? null : errorJson(r.error).error,
  };
}

function detailOf(r: BulkRow): string {
  if (r.outcome === 'ok') return r.state ?? '';
  if (r.outcome === 'interrupted') return 'stopped while under way: it may have landed; read the item back';
  if (r.outcome === 'not started' && r.error instanceof InterruptedError)
    return 'stopped before it began: nothing was sent';
  if (r.id === '' && r.outcome === 'failed') return `workspace not read: ${errorLines(r.error).join(' ')}`;
  if (r.error instanceof ExitError || r.error instanceof Error) return errorLines(r.error).join(' ');
  return '';
}

const columns: Array<Column<BulkRowShown>> = [
  { header: 'WORKSPACE', value: (r) => (r.workspace_id === null ? '' : idText(r.workspace_id)), keep: true },
  { header: 'ID', value: (r) => (r.id === null ? '' : idText(r.id)), keep: true },
  { header: 'TITLE', value: (r) => r.title },
  { header: 'OUTCOME', value: (r) => r.outcome, keep: true },
  { header: 'DETAIL', value: (r) => r.detail },
];

/** A line redrawn in place on a terminal (stderr), nothing elsewhere or with --quiet. */
class LiveLine {
  private constructor(private readonly spinner: Spinner | undefined) {}

  static async start(ctx: Context, text: string): Promise<LiveLine> {
    const live = !!ctx.io.stderr.isTTY && !ctx.output.flags.quiet;
    return new LiveLine(live ? await ctx.output.spinner(text) : undefined);
  }

  update(text: string): void {
    this.spinner?.update(text);
  }

  stop(): void {
    this.spinner?.stop();
  }
}
