import { listRecipes } from '../../api/recipes.js';
import type { Context } from '../../context.js';
import { ExitError, ManyFailures } from '../../errors.js';
import { errorLines } from '../../output/errors.js';
import type { Column } from '../../output/output.js';
import { pool } from '../../fleet/pool.js';
import { workspacesOf } from '../../fleet/select.js';
import { collect } from '../../util/collect.js';
import { idText } from '../../util/json.js';
import { parseDuration } from '../../util/validate.js';
import { formatOption } from '../shared/format.js';
import { fleetConcurrency } from '../shared/concurrency.js';
import { workspaceChoice } from '../shared/workspace-choice.js';
import type { FreshnessOptions } from './command.js';
import {
  ageText,
  extractionText,
  FORMATS,
  freshnessCsv,
  freshnessMarkdown,
  verdictText,
  utcText,
} from './shared/formats.js';
import { errorRow, workspaceRows, type FreshnessRow } from './shared/rows.js';

const columns: Array<Column<FreshnessRow>> = [
  { header: 'WORKSPACE', value: (r) => idText(r.workspace_id) },
  { header: 'DATA SOURCE', value: (r) => r.data_source ?? '' },
  { header: 'RECIPES', value: (r) => r.recipe_ids.map(idText).join(','), drop: 2 },
  {
    header: 'LAST BUILD',
    value: (r) => (r.last_build_at !== null ? utcText(r.last_build_at) : r.error === null ? 'never' : ''),
    raw: (r) => r.last_build_at ?? '',
    drop: 1,
  },
  {
    header: 'AGE',
    value: (r) => (r.error === null ? ageText(r.build_age_seconds) : ''),
    raw: (r) => r.build_age_seconds ?? '',
  },
  {
    header: 'EXTRACTION',
    value: (r) => (r.error === null ? extractionText(r) : ''),
    raw: (r) => r.extraction_delivered ?? '',
  },
  { header: 'NOT DELIVERED', value: (r) => r.not_delivered_accounts.map(idText).join(',') },
  { header: 'DEGRADED', value: (r) => (r.degraded ? 'yes' : ''), raw: (r) => r.degraded },
  { header: 'STATUS', keep: true, value: (r) => verdictText(r) },
  { header: 'ERROR', value: (r) => r.error ?? '' },
];

/**
 * `edp freshness`: how recent each workspace's data is, per data source of its recipes: the
 * last successful build, its age by the service's clock, what did not deliver; exit 1 when
 * anything is older than --max-age.
 */
export async function runFreshness(opts: FreshnessOptions, ctx: Context): Promise<void> {
  const choice = workspaceChoice(ctx, opts);
  const maxAgeMs = parseDuration(opts.maxAge, '--max-age');
  const format = formatOption(opts.format, FORMATS, ctx, { text: 'text', json: 'json' });
  const concurrency = fleetConcurrency(ctx, opts.concurrency, 'reads');
  const api = await ctx.api();
  const workspaces = await workspacesOf(api, choice);
  const read = await pool(workspaces, concurrency(workspaces.length), async (ws) => {
    try {
      return { ws, recipes: await collect(listRecipes(api, ws)), err: undefined };
    } catch (err) {
      return { ws, recipes: [], err };
    }
  });
  // Ages are measured on the service's clock: the Date of its answers, else this machine's.
  const now = api.client.serviceDate ?? ctx.now();
  const rows = read.flatMap((p) =>
    p.err === undefined ? workspaceRows(p.ws, p.recipes, now, maxAgeMs) : [errorRow(p.ws, errorLines(p.err).join(' '))],
  );
  if (format === 'json') {
    if (ctx.output.flags.ndjson) await ctx.output.list(rows, columns);
    else ctx.output.json(rows);
  } else if (format === 'csv') ctx.output.write(freshnessCsv(rows));
  else if (format === 'markdown') ctx.output.write(freshnessMarkdown(rows, opts.maxAge));
  else await ctx.output.list(rows, columns, { empty: 'No automated recipe in these workspaces.' });
  const failed = read.filter((p) => p.err !== undefined);
  for (const f of failed) ctx.output.warn(`workspace ${f.ws}: ${errorLines(f.err).join('\n  ')}`);
  if (failed.length > 0) throw new ManyFailures(failed.map((f) => f.err));
  const stale = rows.filter((r) => r.stale).length;
  if (stale > 0)
    throw new ExitError('failure', `${stale} row(s) older than --max-age ${opts.maxAge} or never built`, {
      silent: true,
    });
}
