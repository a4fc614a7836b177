import { revokeLink } from '../../api/links.js';
import type { Context } from '../../context.js';
import { parseId } from '../../util/validate.js';
import { confirmOrRequireYes } from '../shared/confirm.js';
import { suggestingDataSource } from '../shared/datasource-names.js';
import { parseName } from '../shared/options.js';
import type { RevokeOptions } from './command.js';

export async function runRevoke(opts: RevokeOptions, ctx: Context): Promise<void> {
  const linkId = parseId(opts.args[0], 'link id');
  const datasource = parseName(opts.dataSource, '--data-source');
  const ws = ctx.requireWorkspace();
  await confirmOrRequireYes(
    ctx,
    opts.yes,
    `revoking link ${linkId}`,
    `Revoke link ${linkId} (${datasource}) in workspace ${ws}? Its recipient can no longer connect with it.`,
  );
  const api = await ctx.api();
  const link = await suggestingDataSource(api, ws, datasource, () => revokeLink(api, ws, datasource, linkId));
  if (ctx.output.machine) ctx.output.json(link);
  else ctx.output.success(`Link ${linkId} is revoked${link?.revoked_at ? ` (since ${String(link.revoked_at)})` : ''}`);
}
