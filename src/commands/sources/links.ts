import type { Context } from '../../context.js';
import { createLinks, listLinks, revokeLink, type ExternalAuthLink } from '../../api/sources.js';
import type { Column } from '../../output/output.js';
import { parseEmail, parseEmailList, parseId } from '../../util/validate.js';
import type { Opts } from '../shared/app.js';
import { limitOf, parseName } from '../shared/options.js';
import { confirmOrRequireYes } from '../shared/confirm.js';
import { suggestingDataSource } from './datasource-names.js';

/** Status is an open set: a value the tool does not know is shown as it is, uncoloured. */
const statusColumn: Column<ExternalAuthLink> = {
  header: 'STATUS',
  value: (l) => l.status,
  style: (t, l, c) =>
    l.status === 'not_used' ? c.green(t)
    : l.status === 'used' ? c.cyan(t)
    : l.status === 'expired' || l.status === 'revoked_manually' ? c.dim(t)
    : t,
};

export async function runCreate(ctx: Context, _a: unknown[], opts: Opts): Promise<number> {
  const datasource = parseName(opts.dataSource, '--data-source');
  const seen = new Set<string>();
  // One link per address: the same address twice would only make a second link.
  const to = parseEmailList(opts.to, '--to').filter((e) => !seen.has(e.toLowerCase()) && !!seen.add(e.toLowerCase()));
  const requestedBy = opts.requestedBy === undefined ? undefined : parseEmail(opts.requestedBy, '--requested-by');
  const ws = ctx.requireWorkspace();
  const api = await ctx.api();
  const links = await suggestingDataSource(api, ws, datasource, () => createLinks(api, ws, datasource, { to_emails: to, send_email: !!opts.sendEmail, requested_by: requestedBy }));
  if (!ctx.output.machine) {
    const n = links.length;
    ctx.output.success(`Created ${n} ${datasource} link${n === 1 ? '' : 's'} (valid 14 days, single use)`);
    if (!opts.sendEmail) ctx.output.info('Not e-mailed: send each address its URL.');
  }
  await ctx.output.list(links, [
    { header: 'ID', value: (l) => l.id },
    { header: 'EMAIL', value: (l) => l.email },
    statusColumn,
    { header: 'EXPIRES', value: (l) => l.expires_at },
    { header: 'URL', value: (l) => l.url },
  ]);
  return 0;
}

export async function runList(ctx: Context, _a: unknown[], opts: Opts): Promise<number> {
  const datasource = parseName(opts.dataSource, '--data-source');
  const limit = limitOf(opts.limit);
  const ws = ctx.requireWorkspace();
  const api = await ctx.api();
  await ctx.output.list(
    listLinks(api, ws, datasource, { limit }),
    [
      { header: 'ID', value: (l) => l.id },
      { header: 'EMAIL', value: (l) => l.email },
      statusColumn,
      { header: 'CREATED', value: (l) => l.created_at },
      { header: 'EXPIRES', value: (l) => l.expires_at },
      { header: 'REQUESTED BY', value: (l) => l.requested_by },
    ],
    { empty: `No ${datasource} links in workspace ${ws}.` },
  );
  return 0;
}

export async function runRevoke(ctx: Context, [id]: unknown[], opts: Opts): Promise<number> {
  const linkId = parseId(id as string, 'link id');
  const datasource = parseName(opts.dataSource, '--data-source');
  const ws = ctx.requireWorkspace();
  await confirmOrRequireYes(ctx, opts.yes, `revoking link ${linkId}`, `Revoke link ${linkId} (${datasource}) in workspace ${ws}? Its recipient can no longer connect with it.`);
  const api = await ctx.api();
  const link = await suggestingDataSource(api, ws, datasource, () => revokeLink(api, ws, datasource, linkId));
  if (ctx.output.machine) ctx.output.json(link);
  else ctx.output.success(`Link ${linkId} is revoked${link?.revoked_at ? ` (since ${String(link.revoked_at)})` : ''}`);
  return 0;
}
