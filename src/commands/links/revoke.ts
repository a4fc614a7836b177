import { listDataSources } from '../../api/datasources.js';
import { listLinks, revokeLink, type ExternalAuthLink } from '../../api/links.js';
import type { Service } from '../../api/service.js';
import type { Context } from '../../context.js';
import { ExitError, UsageError, withHint } from '../../errors.js';
import { collect } from '../../util/collect.js';
import { didYouMean } from '../../util/did-you-mean.js';
import { idText } from '../../util/json.js';
import { parseId } from '../../util/validate.js';
import { confirmOrRequireYes } from '../shared/confirm.js';
import { suggestingDataSource } from '../shared/datasource-names.js';
import { parseName } from '../shared/options.js';
import type { RevokeOptions } from './command.js';

/**
 * `edp links revoke ID`: the link is read first (the list, newest first: the contract has no
 * read of one link), so that a revoke the service refuses is never asked about: a used or
 * expired link cannot be revoked (400), and one revoked already is revoked again without a
 * question (200, unchanged). Only an unused link is asked about.
 */
export async function runRevoke(opts: RevokeOptions, ctx: Context): Promise<void> {
  const linkId = parseId(opts.args[0], 'link id');
  const datasource = parseName(opts.dataSource, '--data-source');
  const ws = ctx.requireWorkspace();
  const action = `revoking link ${linkId}`;
  // Off a terminal without --yes: refused as before, before anything is read.
  if (!opts.yes && !ctx.interactive) await confirmOrRequireYes(ctx, opts.yes, action, '');
  const api = await ctx.api();
  const listCommand = ctx.hint('links', 'list', '--data-source', datasource, '-w', ws);
  const found = await findLink(api, ws, datasource, linkId, listCommand);
  if (found.status === 'used') {
    const connection =
      found.connection_id === undefined || found.connection_id === null ? undefined : idText(found.connection_id);
    throw new UsageError(
      `link ${linkId} has already been used, and a used link cannot be revoked: its recipient made ${connection ? `connection ${connection}` : 'a connection'} with it, which stays. To remove that connection: \`${ctx.hint('connections', 'delete', connection ?? 'ID', '--data-source', datasource, '-w', ws)}\``,
    );
  }
  if (found.status === 'expired')
    throw new UsageError(
      `link ${linkId} has expired (links last 14 days), and an expired link cannot be revoked: nobody can use it any more. A new one: \`${ctx.hint('links', 'create', '--data-source', datasource, '--to', found.email ?? 'EMAIL', '-w', ws)}\``,
    );
  if (found.status !== 'revoked_manually')
    await confirmOrRequireYes(
      ctx,
      opts.yes,
      action,
      `Revoke link ${linkId} (${datasource}${found.email ? `, to ${found.email}` : ''}) in workspace ${ws}? Its recipient can no longer connect with it.`,
    );
  const link = await suggestingDataSource(api, ws, datasource, () => revokeLink(api, ws, datasource, linkId));
  if (ctx.output.machine) ctx.output.json(link);
  else ctx.output.success(`Link ${linkId} is revoked${link?.revoked_at ? ` (since ${String(link.revoked_at)})` : ''}`);
}

/**
 * The link, from the data source's list in this workspace. One the list does not hold is not
 * found (exit 5), with the closest data source names when the name is not one of them (the
 * list of an unknown data source is empty, not an error).
 */
async function findLink(
  api: Service,
  ws: string,
  datasource: string,
  linkId: string,
  listCommand: string,
): Promise<ExternalAuthLink> {
  for await (const l of listLinks(api, ws, datasource)) if (idText(l.id) === linkId) return l;
  const err = new ExitError(
    'notFound',
    `workspace ${ws} has no ${datasource} link ${linkId}; \`${listCommand}\` lists them`,
  );
  const known = await collect(listDataSources(api, ws)).then(
    (l) => l.map((d) => d.name),
    () => undefined,
  );
  if (known && !known.includes(datasource)) {
    const near = didYouMean(datasource, known);
    withHint(err, `"${datasource}" is not a data source in this workspace${near ? `; ${near}` : ''}`);
  }
  throw err;
}
