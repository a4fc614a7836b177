import { getRecipe } from '../../api/recipes.js';
import type { Context } from '../../context.js';
import { UsageError, withHint } from '../../errors.js';
import { readValidDocument } from '../../util/document.js';
import { parseDate, parseId } from '../../util/validate.js';
import type { ConfigureOptions } from './command.js';
import { renamedValue } from '../shared/flags.js';
import {
  additionsOf,
  appendConfiguration,
  configurationOf,
  refuseRemovals,
  splitList,
  type Addition,
} from '../../recipes/configuration.js';
import { AmbiguousConnectionError, resolveSource } from '../../recipes/resolve.js';
import { showRecipe } from './shared/view.js';

/**
 * Configures a recipe, append-only: the recipe is read first, its `connections[]` are kept as
 * they are and additions are appended (docs/contract-rules.md, Versioning 4). `--file` gives the complete
 * configuration the API takes; flags add one data source's connection and accounts. A removal
 * refused because another configure appended meanwhile is resolved by reading and merging again.
 */
export async function runConfigure(opts: ConfigureOptions, ctx: Context): Promise<void> {
  const recipeId = parseId(opts.args[0], 'recipe id');
  const ws = ctx.requireWorkspace();
  const flagged = opts.dataSource !== undefined || opts.connection !== undefined || opts.accounts !== undefined;
  if (opts.file !== undefined && flagged)
    throw new UsageError('pass either --file or --data-source/--connection/--accounts, not both');
  if (opts.file === undefined && !flagged)
    throw new UsageError(
      'nothing to configure: pass --file FILE, or --data-source DS --accounts A,B (and --connection ID)',
    );
  const syncFromFlag = renamedValue(
    ctx,
    opts.syncFromDate,
    { value: opts.syncFrom, flag: '--sync-from' },
    '--sync-from-date',
  );
  const syncFrom = syncFromFlag === undefined ? undefined : parseDate(syncFromFlag, '--sync-from-date');
  const desired =
    opts.file !== undefined
      ? configurationOf(
          await readValidDocument(
            opts.file,
            ctx.io.stdin,
            '--file',
            'recipe configuration',
            async () => (await import('../../recipes/schema.js')).configurationFile,
          ),
          '--file',
        )
      : undefined;
  let selectors: string[] = [];
  let connectionId: string | undefined;
  let dataSource = '';
  if (!desired) {
    if (!opts.dataSource) throw new UsageError('--data-source is required with --accounts');
    dataSource = opts.dataSource;
    selectors = splitList(opts.accounts);
    if (selectors.length === 0)
      throw new UsageError('--accounts needs at least one account: an id, a title, remote:ID or all-active');
    connectionId = opts.connection === undefined ? undefined : parseId(opts.connection, '--connection');
  }

  const api = await ctx.api();
  const current = await getRecipe(api, ws, recipeId);
  let additions: Addition[];
  if (desired) {
    refuseRemovals(current, desired);
    additions = additionsOf(desired);
  } else {
    // Without --connection, the recipe's connection of the data source, else the workspace's one (recipes/resolve.ts).
    const source = await resolveSource(api, ws, dataSource, selectors, connectionId, current.connections).catch(
      (err: unknown) => {
        if (err instanceof AmbiguousConnectionError) throw withHint(err, `pass --connection ${err.choices}`);
        throw err;
      },
    );
    additions = [
      {
        dataSource: source.dataSource,
        connectionId: source.connectionId,
        accountIds: source.accounts.map((a) => a.id),
      },
    ];
  }
  const result = await appendConfiguration(
    api,
    ws,
    recipeId,
    current,
    additions,
    syncFrom ?? desired?.sync_from_date ?? undefined,
    {
      onConflict: () =>
        ctx.output.info(
          `Recipe ${recipeId} changed while it was being configured; reading it again and appending again.`,
        ),
    },
  );
  if (ctx.output.machine) ctx.output.json(result.recipe);
  else if (!result.changed) {
    ctx.output.info(`Recipe ${recipeId} already has this configuration; nothing sent.`);
    showRecipe(ctx.output, result.recipe);
  } else {
    ctx.output.success(
      `Configured recipe ${recipeId}: ${result.addedAccounts} account(s) added; build it with \`${ctx.hint('recipes', 'build', recipeId, '--wait')}\``,
    );
    showRecipe(ctx.output, result.recipe);
  }
}
