import { setAccountsExtraction, type AccountV3 } from '../../../api/accounts.js';
import type { Context } from '../../../context.js';
import { UsageError } from '../../../errors.js';
import { parseId, parseIdList } from '../../../util/validate.js';
import { bulkForm, dataSourcesOf, idWords, runBulk } from '../../shared/bulk.js';
import type { EnableOptions } from '../command.js';

/**
 * `accounts enable` and `accounts disable`: set the extraction flag of the accounts named, of one
 * connection, or in bulk (shared/bulk.ts).
 */
export async function setExtraction(ctx: Context, opts: EnableOptions, enabled: boolean): Promise<void> {
  const ids = idWords(opts.args[0], 'account id');
  if (bulkForm(ctx, opts, ids.length > 0 && opts.connection !== undefined, opts.dataSource !== undefined)) {
    const dataSources = dataSourcesOf(opts.dataSource);
    if (!dataSources)
      throw new UsageError(
        'name the accounts: --connection ID and account ids in one workspace, or --data-source NAMES to select them across workspaces',
      );
    return runBulk(ctx, opts, {
      action: enabled ? 'accounts.enable' : 'accounts.disable',
      ids,
      selection: {
        dataSources,
        connections: opts.connection === undefined ? undefined : parseIdList(opts.connection, '--connection'),
      },
    });
  }
  const connectionId = parseId(opts.connection!, '--connection');
  const ws = ctx.requireWorkspace();
  const api = await ctx.api();
  const updated = await setAccountsExtraction(api, ws, connectionId, ids, enabled);
  if (!ctx.output.machine) {
    const n = updated.length;
    ctx.output.success(
      `${enabled ? 'Enabled' : 'Disabled'} extraction for ${n} account${n === 1 ? '' : 's'} of connection ${connectionId}`,
    );
  }
  await ctx.output.list(updated, [
    { header: 'ID', value: (a: AccountV3) => a.id },
    { header: 'TITLE', value: (a: AccountV3) => a.title },
    { header: 'ENABLED FOR EXTRACTION', value: (a: AccountV3) => a.enabled_for_embedded_extraction },
  ]);
}
