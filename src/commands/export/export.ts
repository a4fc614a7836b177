import { renameSync, writeFileSync } from 'node:fs';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { exportFleet } from '../../fleet/export.js';
import { fleetDocument } from '../../fleet/file.js';
import { workspacesOf } from '../../fleet/select.js';
import { workspaceChoice } from '../shared/workspace-choice.js';
import { stringifyJson } from '../../util/json.js';
import { fleetConcurrency } from '../shared/concurrency.js';
import type { ExportOptions } from './command.js';
import { replaceRefusal, withHeader } from './shared/own-file.js';
import { checkOutputFile } from '../../util/output-file.js';

/** `edp export`: the live state as a fleet file (docs/guide.md, Fleet as code). */
export async function runExport(opts: ExportOptions, ctx: Context): Promise<void> {
  const choice = workspaceChoice(ctx, opts);
  const concurrency = fleetConcurrency(ctx, opts.concurrency, 'reads');
  if (opts.output !== undefined && opts.output.trim() === '') throw new UsageError('--output needs a file name');
  if (opts.output !== undefined) checkOutputFile(opts.output, '--output');
  // A file edited by hand is not lost to an export without being asked: only a file the export
  // wrote, unchanged since (its header's digest), is replaced. Checked before anything is read.
  const refusal = opts.output !== undefined && !opts.force ? replaceRefusal(opts.output, !!ctx.flags.json) : undefined;
  if (refusal) throw new UsageError(refusal);
  const api = await ctx.api();
  const workspaces = await workspacesOf(api, choice);
  if (workspaces.length === 0) throw new UsageError('no workspace to export');
  const fleet = await exportFleet(api, workspaces, choice, {
    concurrency,
    warn: (t) => ctx.output.warn(t),
    progress: (w) =>
      ctx.output.info(`read workspace ${w.workspace}: ${w.recipes} recipe(s), ${w.endpoints} webhook endpoint(s)`),
  });
  const doc = fleetDocument(fleet);
  let text: string;
  if (ctx.flags.json) text = `${stringifyJson(doc, 2)}\n`;
  else {
    const { stringify } = await import('yaml');
    text = stringify(doc, { lineWidth: 0 });
    if (opts.output !== undefined) text = withHeader(text);
  }
  if (opts.output !== undefined) {
    // Whole or not at all: an export stopped half-way leaves the previous file as it was.
    const tmp = `${opts.output}.tmp-${process.pid}`;
    writeFileSync(tmp, text);
    renameSync(tmp, opts.output);
    ctx.output.success(
      `wrote ${opts.output}: ${[
        entries(fleet.recipes.length, 'recipe'),
        entries(fleet.webhooks.length, 'webhook'),
        `${fleet.roles.length} role(s)`,
        entries(fleet.kinds.extracts.length, 'extract'),
        entries(fleet.kinds.destinations.length, 'destination'),
        entries(fleet.kinds.accounts.length, 'accounts'),
        entries(fleet.kinds.tables.length, 'table'),
      ].join(', ')}`,
    );
  } else ctx.output.write(text);
}

/** `3 recipe entries`, `1 webhook entry`. */
const entries = (n: number, what: string) => `${n} ${what} entr${n === 1 ? 'y' : 'ies'}`;
