import { createLinks } from '../../api/links.js';
import type { Context } from '../../context.js';
import { parseEmail, parseEmailList } from '../../util/validate.js';
import { suggestingDataSource } from '../shared/datasource-names.js';
import { parseName } from '../shared/options.js';
import type { CreateOptions } from './command.js';
import { statusColumn } from './shared/status.js';

export async function runCreate(opts: CreateOptions, ctx: Context): Promise<void> {
  const datasource = parseName(opts.dataSource, '--data-source');
  const seen = new Set<string>();
  // One link per address: the same address twice would only make a second link.
  const to = parseEmailList(opts.to, '--to').filter((e) => !seen.has(e.toLowerCase()) && !!seen.add(e.toLowerCase()));
  const requestedBy = opts.requestedBy === undefined ? undefined : parseEmail(opts.requestedBy, '--requested-by');
  const ws = ctx.requireWorkspace();
  const api = await ctx.api();
  const links = await suggestingDataSource(api, ws, datasource, () =>
    createLinks(api, ws, datasource, { to_emails: to, send_email: !!opts.sendEmail, requested_by: requestedBy }),
  );
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
}
