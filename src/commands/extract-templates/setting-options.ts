import { listSettingOptions, type SettingOptionGroup } from '../../api/extract-templates.js';
import type { Context } from '../../context.js';
import { parseId } from '../../util/validate.js';
import { parseNames } from '../shared/names.js';
import { limitOf, parseName } from '../shared/options.js';
import type { SettingOptionsOptions } from './command.js';

export async function runSettingOptions(opts: SettingOptionsOptions, ctx: Context): Promise<void> {
  const ds = parseName(opts.dataSource, '--data-source');
  const connectionId = parseId(opts.connection, '--connection');
  const accountIds = parseNames(opts.accounts, '--accounts');
  const limit = limitOf(opts.limit);
  const ws = ctx.requireWorkspace();
  const api = await ctx.api();
  const groups = listSettingOptions(api, ws, ds, { connectionId, accountIds, search: opts.search }, { limit });
  if (ctx.output.machine) {
    await ctx.output.list(groups, []);
    return;
  }
  // One row per option, so that a person can read them grouped by account.
  async function* rows(): AsyncGenerator<{ group: SettingOptionGroup; option: { value: string; title: string } }> {
    for await (const group of groups) for (const option of group.options ?? []) yield { group, option };
  }
  await ctx.output.list(
    rows(),
    [
      { header: 'ACCOUNT', value: (r) => r.group.account_id },
      { header: 'ACCOUNT NAME', value: (r) => r.group.account_name },
      { header: 'VALUE', value: (r) => r.option.value },
      { header: 'TITLE', value: (r) => r.option.title },
    ],
    { empty: 'No options.' },
  );
}
